import { JITTER, retryDelayMs } from './retry-policy.js';

describe('retryDelayMs', () => {
  const base = [30_000, 120_000, 600_000, 1_800_000, 7_200_000];

  it.each(base.map((ms, i) => [i + 1, ms]))('attempt %i waits %i ms ±20 %%', (attempt, ms) => {
    expect(retryDelayMs(attempt, () => 0.5)).toBe(ms);
    expect(retryDelayMs(attempt, () => 0)).toBe(Math.round(ms * (1 - JITTER)));
    expect(retryDelayMs(attempt, () => 0.999999)).toBeCloseTo(ms * (1 + JITTER), -2);
  });

  it('caps at 2 h for attempts past the schedule', () => {
    expect(retryDelayMs(9, () => 0.5)).toBe(7_200_000);
  });

  it('stays within the jitter band for any random value', () => {
    for (let i = 0; i < 1000; i++) {
      const attempt = 1 + (i % 6);
      const ms = base[Math.min(attempt, 5) - 1];
      const delay = retryDelayMs(attempt);
      expect(delay).toBeGreaterThanOrEqual(ms * (1 - JITTER) - 1);
      expect(delay).toBeLessThanOrEqual(ms * (1 + JITTER) + 1);
    }
  });
});
