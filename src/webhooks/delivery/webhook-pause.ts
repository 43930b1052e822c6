import { WEBHOOK_MAX_RETRY_DELAY_MS } from './webhook-retry.js';

/**
 * Failed attempts in a row (across all of an endpoint's deliveries, no success between) after
 * which the endpoint is paused. Five: one or two failures are blips that a delivery's own retry
 * absorbs, but five in a row — the first attempts of five different events, typically — mean the
 * receiver is down, and every further event would only add a request that times out.
 */
export const WEBHOOK_PAUSE_AFTER_FAILURES = 5;

/**
 * Whether an endpoint's breaker tripped while its batch was out: this batch's failures (and no
 * success in it) brought the count it had at the claim to the pause, so the batch's further
 * deliveries to it are held rather than sent. The probe of an ended pause starts at the count
 * already, with no failure in its batch yet: it is still sent.
 */
export function trippedDuringBatch(failuresAtClaim: number, failedInBatch: number): boolean {
  return failedInBatch > 0 && failuresAtClaim + failedInBatch >= WEBHOOK_PAUSE_AFTER_FAILURES;
}

/** The first pause; each further failure (a failed probe) doubles it. */
const FIRST_PAUSE_MS = 30_000;

/**
 * How long an endpoint is paused after its `consecutiveFailures`-th failed attempt in a row: 0
 * below WEBHOOK_PAUSE_AFTER_FAILURES, then 30 s, 1 min, 2 min … doubling per failed probe, capped
 * at the retry schedule's longest wait (8 h), so a receiver down for long is probed about as
 * often as one delivery would be retried. No jitter: one probe per endpoint, not a crowd.
 */
export function webhookPauseMs(consecutiveFailures: number): number {
  const beyond = consecutiveFailures - WEBHOOK_PAUSE_AFTER_FAILURES;
  if (beyond < 0) return 0;
  // 2^20 × 30 s is far beyond the cap: no overflow to Infinity for a large count.
  return Math.min(FIRST_PAUSE_MS * 2 ** Math.min(beyond, 20), WEBHOOK_MAX_RETRY_DELAY_MS);
}

/**
 * The pauses as the endpoint-health statement takes them: element i (1-based in SQL) is the pause
 * after WEBHOOK_PAUSE_AFTER_FAILURES + i - 1 failures in a row, the last one the cap (SQL indexes
 * with least(i, cardinality)). Computed here so the rule lives in one place, in TypeScript.
 */
export function webhookPauseScheduleMs(): number[] {
  const schedule: number[] = [];
  for (let f = WEBHOOK_PAUSE_AFTER_FAILURES; ; f++) {
    schedule.push(webhookPauseMs(f));
    if (schedule.at(-1) === WEBHOOK_MAX_RETRY_DELAY_MS) return schedule;
  }
}
