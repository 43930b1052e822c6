import { JITTER } from './retry-policy.js';
import { Outcomes } from './outcomes.js';

/** The retry-or-fail rule every transient failure goes through (rules tier, issue 21): a fixed clock. */
describe('Outcomes.retryOrFail', () => {
  const NOW = Date.parse('2026-12-02T10:00:00Z');
  const outcomes = () => new Outcomes(new Set(['p']), () => NOW);
  const job = (attempts: number, maxAttempts = 5) => ({ id: `job-${attempts}`, attempts, maxAttempts });

  it('retries after the backoff of the attempt that failed (30 s ± jitter after the first)', () => {
    const o = outcomes();
    o.retryOrFail(job(1), 'resend', 'timeout');
    expect(o.failed).toEqual([]);
    const [retry] = o.retry;
    expect(retry).toMatchObject({ id: 'job-1', attempts: 1, provider: 'resend', error: 'timeout' });
    const delay = retry.runAt.getTime() - NOW;
    expect(delay).toBeGreaterThanOrEqual(30_000 * (1 - JITTER));
    expect(delay).toBeLessThanOrEqual(30_000 * (1 + JITTER));
  });

  it('waits at least what the provider asked (Retry-After) when that is longer than the backoff', () => {
    const o = outcomes();
    o.retryOrFail(job(1), 'twilio', '503', 3_600_000);
    expect(o.retry[0].runAt.getTime()).toBe(NOW + 3_600_000);
  });

  it('fails for good once the attempts are spent, saying so, and never schedules a retry', () => {
    const o = outcomes();
    o.retryOrFail(job(5, 5), 'resend', 'connection reset');
    expect(o.retry).toEqual([]);
    expect(o.failed).toEqual([
      { id: 'job-5', attempts: 5, provider: 'resend', error: 'connection reset (gave up after 5 attempts)' },
    ]);
  });

  it('drain() hands over what was collected and keeps the clock', () => {
    const o = outcomes();
    o.retryOrFail(job(1), null, 'x');
    const taken = o.drain();
    expect([o.size, taken.size]).toEqual([0, 1]);
    taken.retryOrFail(job(2), null, 'y', 10 * 3_600_000);
    expect(taken.retry[1].runAt.getTime()).toBe(NOW + 10 * 3_600_000);
  });
});
