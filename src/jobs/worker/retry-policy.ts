/** Delay before attempt n+1 after a transient failure of attempt n (seed paper §4.3). */
const SCHEDULE_MS = [30_000, 120_000, 600_000, 1_800_000, 7_200_000];

/** ±20 % jitter, so that a burst of failures does not come back as a burst of retries. */
export const JITTER = 0.2;

/**
 * 30 s, 2 min, 10 min, 30 min, then 2 h for every later attempt, each ±20 %.
 * `random` is injectable for tests; it must return a value in [0, 1).
 */
export function retryDelayMs(attempt: number, random: () => number = Math.random): number {
  const base = SCHEDULE_MS[Math.min(Math.max(attempt, 1), SCHEDULE_MS.length) - 1];
  return Math.round(base * (1 + (random() * 2 - 1) * JITTER));
}
