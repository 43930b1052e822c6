import type { RenderedContentDto } from '../dto/job.dto.js';
import type { JobRow } from '../../domain/job.types.js';
import { hasLiquid } from '../../templates/template-context.js';
import { boundContent } from './content-bounds.js';
import type { StoredContent } from './job-contents.repository.js';

/** A project's `settings.rendered_content`: "redact" keeps no content and shows none. */
export const RENDERED_CONTENT_SETTINGS = ['keep', 'redact'] as const;

export function redactsContent(settings: Record<string, unknown> | null | undefined): boolean {
  return settings?.rendered_content === 'redact';
}

/** What the job view says was sent (see RenderedContentDto). */
export function renderedView(
  job: Pick<JobRow, 'templateId' | 'payload'>,
  stored: StoredContent | undefined,
  redact: boolean,
): RenderedContentDto {
  const none = { subject: null, body: null, body_html: null, truncated: false, rendered_at: null };
  if (redact) return { status: 'redacted', ...none };
  if (stored) {
    return {
      status: 'kept',
      subject: stored.subject,
      body: stored.body,
      body_html: stored.bodyHtml,
      truncated: stored.truncated,
      rendered_at: stored.renderedAt.toISOString(),
    };
  }
  const p = job.payload;
  if (job.templateId || hasLiquid(p.subject) || hasLiquid(p.body) || hasLiquid(p.body_html))
    return { status: 'not_rendered', ...none };
  const kept = boundContent({ subject: p.subject, body: p.body, bodyHtml: p.body_html });
  return {
    status: 'as_sent',
    subject: kept.subject,
    body: kept.body,
    body_html: kept.bodyHtml,
    truncated: kept.truncated,
    rendered_at: null,
  };
}
