import { maskRecipient } from '../../common/pii/mask.js';
import type { JobAttempt, JobRow } from '../../domain/job.types.js';

/**
 * One moment of a job's story. Built here, below the interfaces, so that the MCP job_timeline
 * tool and the recipient trace (REST, MCP, console) tell a job the same way.
 */
export interface TimelineEvent {
  at: string;
  event: string;
  detail: string | null;
  actor: string | null;
}

/** One recorded attempt as a timeline event: what happened, whether it counted, and when the job was due again. */
function attemptEvent(a: JobAttempt): TimelineEvent {
  const counted = a.counted ? `attempt ${a.attempt}` : `attempt ${a.attempt}, not counted`;
  const next = a.nextAt ? `; due again ${a.nextAt.toISOString()}` : '';
  return {
    at: a.at.toISOString(),
    event: `attempt_${a.outcome}`,
    detail: `${counted}${a.provider ? `, ${a.provider}` : ''}: ${a.error ?? 'no error recorded'}${next}`,
    actor: null,
  };
}

/**
 * The moments a job row and its recorded attempts (job_attempts) tell, oldest first. With
 * attempts recorded, each failed, rate-limited or deferred attempt is its own event; the row's
 * own last error ("failed", "retry_due") is kept for jobs older than the attempts table.
 */
export function rowEvents(job: JobRow, attempts: readonly JobAttempt[] = []): TimelineEvent[] {
  const events: TimelineEvent[] = [
    {
      at: job.createdAt.toISOString(),
      event: 'created',
      detail: `${job.channel} to ${maskRecipient(job.recipient, job.channel)}, priority ${job.priority}`,
      actor: job.createdBy,
    },
  ];
  events.push(...attempts.map(attemptEvent));
  const lastFailed = attempts.some((a) => a.outcome === 'failed');
  if (job.scheduledAt.getTime() - job.createdAt.getTime() > 1000)
    events.push({ at: job.scheduledAt.toISOString(), event: 'scheduled', detail: 'due time', actor: null });
  if (job.claimedAt)
    events.push({
      at: job.claimedAt.toISOString(),
      event: 'claimed',
      detail: `attempt ${job.attempts} of ${job.maxAttempts}`,
      actor: null,
    });
  if (job.sentAt)
    events.push({
      at: job.sentAt.toISOString(),
      event: 'sent',
      detail: `${job.provider ?? 'provider'}${job.providerMessageId ? ` id ${job.providerMessageId}` : ''}`,
      actor: null,
    });
  if (job.status === 'retry')
    events.push({
      at: (job.nextRetryAt ?? job.runAt).toISOString(),
      event: 'retry_due',
      detail: job.error,
      actor: null,
    });
  if (job.status === 'failed' && !job.sentAt && !lastFailed)
    events.push({
      at: (job.claimedAt ?? job.createdAt).toISOString(),
      event: 'failed',
      detail: job.error,
      actor: null,
    });
  for (const [at, event] of [
    [job.deliveredAt, 'delivered'],
    [job.bouncedAt, 'bounced'],
    [job.openedAt, 'opened'],
    [job.clickedAt, 'clicked'],
  ] as const) {
    if (at) events.push({ at: at.toISOString(), event, detail: event === 'bounced' ? job.error : null, actor: null });
  }
  return events;
}
