/**
 * Delay after failed attempt n (1-based) before attempt n+1: about a day in all (Standard
 * Webhooks' guidance), fast at first for blips, then hours apart for outages. Ten attempts.
 */
const SCHEDULE_MS = [5_000, 60_000, 300_000, 1_800_000, 3_600_000, 7_200_000, 14_400_000, 28_800_000, 28_800_000];

export const WEBHOOK_MAX_ATTEMPTS = SCHEDULE_MS.length + 1;
/** The longest wait of the schedule (8 h); also the cap of an endpoint's pause (webhook-pause.ts). */
export const WEBHOOK_MAX_RETRY_DELAY_MS = Math.max(...SCHEDULE_MS);
/** Longest wait a receiver's Retry-After can ask for. */
const MAX_RETRY_AFTER_MS = 86_400_000;
const JITTER = 0.2;

/** The wait before the next attempt, ±20 %; a longer Retry-After (429, 503…) wins, up to a day. */
export function webhookRetryDelayMs(
  attempt: number,
  retryAfterMs?: number,
  random: () => number = Math.random,
): number {
  const base = SCHEDULE_MS[Math.min(Math.max(attempt, 1), SCHEDULE_MS.length) - 1];
  const jittered = Math.round(base * (1 + (random() * 2 - 1) * JITTER));
  return Math.max(jittered, Math.min(retryAfterMs ?? 0, MAX_RETRY_AFTER_MS));
}
