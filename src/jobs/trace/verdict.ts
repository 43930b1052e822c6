import type { JobRow } from '../../domain/job.types.js';
import type { JobWaiting } from '../timeline/waiting.js';

/**
 * What became of one message, in one word: refused (never queued, or dropped by a rule at send
 * time), waiting, sending, sent (accepted by the provider, no report since), delivered, bounced,
 * complained, failed or cancelled.
 */
export type Verdict =
  'refused' | 'waiting' | 'sending' | 'sent' | 'delivered' | 'bounced' | 'complained' | 'failed' | 'cancelled';

export interface Judgement {
  verdict: Verdict;
  /** The rule behind a refusal; null otherwise. */
  rule: string | null;
  /** What decided it, in words, with the fix where there is one. */
  reason: string;
}

/** The words for each admission rule (src/jobs/admission SkipRule), completed by the stored detail. */
const REFUSAL_WORDS: Record<string, string> = {
  suppressed: 'the address is on the suppression list',
  opted_out: "the subscriber's preferences opt out of this message",
  capped: 'a per-recipient cap was already reached',
  invalid_address: 'the address cannot be used on this channel',
  no_address: 'the subscriber has no address on this channel',
  unknown_subscriber: 'no such subscriber in the project',
  not_configured: 'the channel has no provider configured',
};

/** A target admission refused (send_refusals): no job was made. */
export function judgeRefusal(r: { rule: string; detail: string; channel: string }): Judgement {
  const words = REFUSAL_WORDS[r.rule] ?? r.rule;
  return {
    verdict: 'refused',
    rule: r.rule,
    reason: `Refused when it was asked for (${r.channel}): ${words} — ${r.detail}. No job was queued.`,
  };
}

/** The worker records a suppression found at send time as this error prefix (dispatcher). */
const SUPPRESSED_AT_SEND = 'suppressed: ';

/**
 * A job's verdict from its row and what holds it (waitingReason): the provider's own evidence
 * (complaint, bounce, delivery) outranks the bare acceptance, and a failure quotes the
 * provider's last answer.
 */
export function judgeJob(job: JobRow, waiting: JobWaiting): Judgement {
  const via = job.provider ? ` by ${job.provider}` : '';
  const id = job.providerMessageId ? ` (provider message id ${job.providerMessageId})` : '';
  switch (job.status) {
    case 'pending':
    case 'retry':
      return { verdict: 'waiting', rule: null, reason: waiting?.reason ?? 'Queued and not sent yet.' };
    case 'processing':
      return {
        verdict: 'sending',
        rule: null,
        reason: `A worker claimed it at ${job.claimedAt?.toISOString() ?? 'an unknown time'} (attempt ${job.attempts} of ${job.maxAttempts}); the provider's answer is not recorded yet.`,
      };
    case 'cancelled':
      return {
        verdict: 'cancelled',
        rule: null,
        reason: `Cancelled before it was sent${job.error ? ` (${job.error})` : ''}; retry_job or POST /v1/admin/jobs/${job.id}/retry queues it again.`,
      };
    case 'bounced':
      return {
        verdict: 'bounced',
        rule: null,
        reason: `Bounced${job.bouncedAt ? ` at ${job.bouncedAt.toISOString()}` : ''}${via}${id}: ${job.error ?? 'no reason given'}. The address is suppressed for hard bounces; fix the address before sending again.`,
      };
    case 'failed':
      if (job.error?.startsWith(SUPPRESSED_AT_SEND)) {
        return {
          verdict: 'refused',
          rule: 'suppressed',
          reason: `Queued, then refused at send time: the address was suppressed by then (${job.error.slice(SUPPRESSED_AT_SEND.length)}).`,
        };
      }
      return {
        verdict: 'failed',
        rule: null,
        reason: `Failed after ${job.attempts} of ${job.maxAttempts} attempt(s)${via}; the provider's last answer: ${job.error ?? 'none recorded'}.`,
      };
    case 'sent':
      if (job.provider === 'skipped') {
        return {
          verdict: 'refused',
          rule: 'skipped_at_send',
          reason: `Queued, then skipped at send time by the recipient's rules: ${job.error ?? 'no reason recorded'}. Nothing was sent.`,
        };
      }
      if (job.complainedAt)
        return {
          verdict: 'complained',
          rule: null,
          reason: `Delivered, then reported as spam at ${job.complainedAt.toISOString()}${via}${id}; the address is suppressed.`,
        };
      if (job.bouncedAt)
        return {
          verdict: 'bounced',
          rule: null,
          reason: `Bounced at ${job.bouncedAt.toISOString()}${via}${id}: ${job.error ?? 'no reason given'}.`,
        };
      if (job.deliveredAt)
        return {
          verdict: 'delivered',
          rule: null,
          reason: `Delivered at ${job.deliveredAt.toISOString()}${via}${id}, as the provider reported.`,
        };
      return {
        verdict: 'sent',
        rule: null,
        reason: `Accepted${via} at ${job.sentAt?.toISOString() ?? 'an unknown time'}${id}; no delivery report since (providers report only through their webhook, when it is configured).`,
      };
  }
}
