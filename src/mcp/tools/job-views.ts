import { z } from 'zod';
import { presentAdminJob } from '../../jobs/job.presenter.js';
import type { JobRow } from '../../domain/job.types.js';
import type { TimelineEvent } from '../../jobs/timeline/row-events.js';
import { isoTime, jobSummary, nullableIso } from './schemas.js';

/** The job's moments are told by jobs/timeline (the recipient trace tells them the same way). */
export { rowEvents } from '../../jobs/timeline/row-events.js';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** One job in full (without its content): what get_job returns. */
export const jobDetail = jobSummary.extend({
  subscriber_id: z.string().nullable(),
  template_id: z.string().nullable(),
  claimed_at: nullableIso,
  delivered_at: nullableIso,
  bounced_at: nullableIso,
  opened_at: nullableIso,
  clicked_at: nullableIso,
});

/** Operators see recipients masked; a project key sees its own recipients as they are. */
export function jobSummaryView(job: JobRow, masked: boolean): z.input<typeof jobSummary> {
  const view = presentAdminJob(job);
  return masked ? view : { ...view, recipient: job.recipient };
}

export function jobDetailView(job: JobRow, masked: boolean): z.input<typeof jobDetail> {
  return {
    ...jobSummaryView(job, masked),
    subscriber_id: job.subscriberId,
    template_id: job.templateId,
    claimed_at: iso(job.claimedAt),
    delivered_at: iso(job.deliveredAt),
    bounced_at: iso(job.bouncedAt),
    opened_at: iso(job.openedAt),
    clicked_at: iso(job.clickedAt),
  };
}

export const timelineEvent = z.object({
  at: isoTime,
  event: z
    .string()
    .describe(
      'created, scheduled, attempt_retry (failed transiently, counted), attempt_failed (failed for good), attempt_rate_limited (refused for rate, not counted), ' +
        'attempt_deferred (put off by a rule, not counted), claimed, sent, delivered, bounced, opened, clicked, retry_due, failed, or an audited action such as job.cancelled',
    ),
  detail: z.string().nullable(),
  actor: z.string().nullable(),
});

export const renderedContent = z.object({
  status: z
    .string()
    .describe(
      'kept (rendered and kept), as_sent (inline content without Liquid: the job fields), redacted (the project keeps no content), not_rendered',
    ),
  subject: z.string().nullable(),
  body: z.string().nullable(),
  body_html: z.string().nullable(),
  truncated: z.boolean().describe('cut to fit 64 KiB'),
  rendered_at: nullableIso,
});
type RenderedContent = z.infer<typeof renderedContent>;

/** The render as a moment of the timeline, when it was kept. */
export function renderedEvents(r: RenderedContent): TimelineEvent[] {
  return r.status === 'kept' && r.rendered_at
    ? [
        {
          at: r.rendered_at,
          event: 'rendered',
          detail: r.subject === null ? null : `subject: ${r.subject}`,
          actor: null,
        },
      ]
    : [];
}

/** The content in a few lines for the tool's text: the subject and the first 500 characters of the body. */
export function renderedText(r: RenderedContent): string {
  if (r.status === 'redacted') return 'Content: redacted by the project (settings.rendered_content = "redact").';
  if (r.status === 'not_rendered') return 'Content: not rendered yet.';
  const body = r.body ?? r.body_html;
  return `Content (${r.status}):${r.subject !== null ? `\nSubject: ${r.subject}` : ''}${body !== null ? `\n${body.slice(0, 500)}${body.length > 500 ? '…' : ''}` : ''}`;
}
