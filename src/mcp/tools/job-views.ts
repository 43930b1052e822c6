import { z } from 'zod';
import { maskRecipient } from '../../common/pii/mask.js';
import { presentAdminJob } from '../../jobs/job.presenter.js';
import type { JobAttempt, JobRow } from '../../domain/job.types.js';
import { isoTime, jobSummary, nullableIso } from './schemas.js';

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
export type TimelineEvent = z.infer<typeof timelineEvent>;

/** One recorded attempt as a timeline event: what happened, whether it counted, and when the job was due again. */
function attemptEvent(a: JobAttempt): TimelineEvent {
  const counted = a.counted ? `attempt ${a.attempt}` : `attempt ${a.attempt}, not counted`;
  const next = a.nextAt ? `; due again ${a.nextAt.toISOString()}` : '';
  return { at: a.at.toISOString(), event: `attempt_${a.outcome}`, detail: `${counted}${a.provider ? `, ${a.provider}` : ''}: ${a.error ?? 'no error recorded'}${next}`, actor: null };
}

/**
 * The moments a job row and its recorded attempts (job_attempts) tell, oldest first. With
 * attempts recorded, each failed, rate-limited or deferred attempt is its own event; the row's
 * own last error ("failed", "retry_due") is kept for jobs older than the attempts table.
 */
export function rowEvents(job: JobRow, attempts: readonly JobAttempt[] = []): TimelineEvent[] {
  const events: TimelineEvent[] = [
    { at: job.createdAt.toISOString(), event: 'created', detail: `${job.channel} to ${maskRecipient(job.recipient, job.channel)}, priority ${job.priority}`, actor: job.createdBy },
  ];
  events.push(...attempts.map(attemptEvent));
  const lastFailed = attempts.some((a) => a.outcome === 'failed');
  if (job.scheduledAt.getTime() - job.createdAt.getTime() > 1000) events.push({ at: job.scheduledAt.toISOString(), event: 'scheduled', detail: 'due time', actor: null });
  if (job.claimedAt) events.push({ at: job.claimedAt.toISOString(), event: 'claimed', detail: `attempt ${job.attempts} of ${job.maxAttempts}`, actor: null });
  if (job.sentAt) events.push({ at: job.sentAt.toISOString(), event: 'sent', detail: `${job.provider ?? 'provider'}${job.providerMessageId ? ` id ${job.providerMessageId}` : ''}`, actor: null });
  if (job.status === 'retry') events.push({ at: (job.nextRetryAt ?? job.runAt).toISOString(), event: 'retry_due', detail: job.error, actor: null });
  if (job.status === 'failed' && !job.sentAt && !lastFailed) events.push({ at: (job.claimedAt ?? job.createdAt).toISOString(), event: 'failed', detail: job.error, actor: null });
  for (const [at, event] of [[job.deliveredAt, 'delivered'], [job.bouncedAt, 'bounced'], [job.openedAt, 'opened'], [job.clickedAt, 'clicked']] as const) {
    if (at) events.push({ at: at.toISOString(), event, detail: event === 'bounced' ? job.error : null, actor: null });
  }
  return events;
}

export const renderedContent = z.object({
  status: z.string().describe('kept (rendered and kept), as_sent (inline content without Liquid: the job fields), redacted (the project keeps no content), not_rendered'),
  subject: z.string().nullable(),
  body: z.string().nullable(),
  body_html: z.string().nullable(),
  truncated: z.boolean().describe('cut to fit 64 KiB'),
  rendered_at: nullableIso,
});
type RenderedContent = z.infer<typeof renderedContent>;

/** The render as a moment of the timeline, when it was kept. */
export function renderedEvents(r: RenderedContent): TimelineEvent[] {
  return r.status === 'kept' && r.rendered_at ? [{ at: r.rendered_at, event: 'rendered', detail: r.subject === null ? null : `subject: ${r.subject}`, actor: null }] : [];
}

/** The content in a few lines for the tool's text: the subject and the first 500 characters of the body. */
export function renderedText(r: RenderedContent): string {
  if (r.status === 'redacted') return 'Content: redacted by the project (settings.rendered_content = "redact").';
  if (r.status === 'not_rendered') return 'Content: not rendered yet.';
  const body = r.body ?? r.body_html;
  return `Content (${r.status}):${r.subject !== null ? `\nSubject: ${r.subject}` : ''}${body !== null ? `\n${body.slice(0, 500)}${body.length > 500 ? '…' : ''}` : ''}`;
}
