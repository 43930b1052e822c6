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

/**
 * A job's detail as an operator key reads it (any project's): every address masked, and the
 * rendered content reduced to the subject, as in listings; the body is the project's to read
 * (its key sees it).
 */
export function presentJobToOperator(job: JobDto): JobDto {
  const masked = maskRecipient(job.recipient, job.channel);
  return {
    ...job,
    recipient: masked,
    email_envelope: job.email_envelope
      ? { ...job.email_envelope, to: [masked], cc: job.email_envelope.cc.map((c) => maskRecipient(c)) }
      : null,
    provider_events: job.provider_events.map((e) => ({
      ...e,
      recipients: e.recipients.map((r) => maskRecipient(r, job.channel)),
    })),
    rendered: { ...job.rendered, body: null, body_html: null },
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
