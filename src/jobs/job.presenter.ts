import { isoOrNull } from '../common/http/iso-timestamp.js';
import { maskRecipient } from '../common/pii/mask.js';
import type { AdminJobSummaryDto, JobDto, RenderedContentDto } from './dto/job.dto.js';
import type { JobAttempt, JobProviderEvent, JobRow } from '../domain/job.types.js';

/** A job as its own project sees it (recipient unmasked: it is the project's data). */
export function presentJob(
  job: JobRow,
  events: readonly JobProviderEvent[],
  rendered: RenderedContentDto,
  attempts: readonly JobAttempt[],
): JobDto {
  return {
    id: job.id,
    channel: job.channel,
    subscriber_id: job.subscriberId,
    recipient: job.recipient,
    template_id: job.templateId,
    topic: job.topic,
    status: job.status,
    priority: job.priority,
    scheduled_at: job.scheduledAt.toISOString(),
    next_retry_at: job.status === 'retry' ? isoOrNull(job.nextRetryAt ?? job.runAt) : null,
    attempts: job.attempts,
    max_attempts: job.maxAttempts,
    provider: job.provider,
    provider_message_id: job.providerMessageId,
    error: job.error,
    created_at: job.createdAt.toISOString(),
    created_by: job.createdBy,
    sent_at: isoOrNull(job.sentAt),
    delivered_at: isoOrNull(job.deliveredAt),
    bounced_at: isoOrNull(job.bouncedAt),
    opened_at: isoOrNull(job.openedAt),
    clicked_at: isoOrNull(job.clickedAt),
    complained_at: isoOrNull(job.complainedAt),
    provider_events: events.map((e) => ({
      provider: e.provider,
      type: e.providerType,
      kind: e.kind,
      occurred_at: e.occurredAt.toISOString(),
      provider_message_id: e.providerMessageId,
      recipients: e.recipients,
      error: e.error,
    })),
    attempt_log: attempts.map(presentAttempt),
    email_envelope:
      job.channel === 'email'
        ? { to: [job.recipient], cc: job.payload.cc ?? [], reply_to: job.payload.reply_to ?? null }
        : null,
    rendered,
  };
}

/** A job in operators' listings: recipient masked, content reduced to the subject. */
export function presentAdminJob(job: JobRow): AdminJobSummaryDto {
  return {
    id: job.id,
    project_id: job.projectId,
    channel: job.channel,
    status: job.status,
    recipient: maskRecipient(job.recipient, job.channel),
    subject: typeof job.payload.subject === 'string' ? job.payload.subject : null,
    topic: job.topic,
    priority: job.priority,
    attempts: job.attempts,
    max_attempts: job.maxAttempts,
    provider: job.provider,
    provider_message_id: job.providerMessageId,
    scheduled_at: job.scheduledAt.toISOString(),
    sent_at: isoOrNull(job.sentAt),
    next_retry_at: job.status === 'retry' ? isoOrNull(job.nextRetryAt ?? job.runAt) : null,
    created_at: job.createdAt.toISOString(),
    error: job.error,
    created_by: job.createdBy,
  };
}

/** One line of a job's attempt log (job detail and trace show the same). */
export function presentAttempt(a: JobAttempt) {
  return {
    at: a.at.toISOString(),
    attempt: a.attempt,
    outcome: a.outcome,
    counted: a.counted,
    provider: a.provider,
    error: a.error,
    next_at: isoOrNull(a.nextAt),
  };
}
