import { adaptiveDecision } from './adaptive-rate.js';

describe('adaptiveDecision (quota headers → lane rate)', () => {
  const now = 1_700_000_000_000;
  const reset = (secs: number) => new Date(now + secs * 1000);

  it('ignores answers without remaining quota or reset time', () => {
    expect(adaptiveDecision(undefined, 10, now)).toEqual({ action: 'none' });
    expect(adaptiveDecision({ limit: 100 }, 10, now)).toEqual({ action: 'none' });
    expect(adaptiveDecision({ remaining: 5 }, 10, now)).toEqual({ action: 'none' });
    expect(adaptiveDecision({ remaining: 5, resetAt: reset(-1) }, 10, now)).toEqual({ action: 'none' });
  });

  it('slows the lane to what is left of the window, with a margin', () => {
    // 52 left, margin 5 % of 100 = 5 → 47 over 10 s, × 0.9 = 4.23/s
    const d = adaptiveDecision({ remaining: 52, limit: 100, resetAt: reset(10) }, 20, now);
    expect(d.action).toBe('slow');
    if (d.action !== 'slow') return;
    expect(d.rate).toBeCloseTo(4.23, 2);
    expect(d.ms).toBe(10_000);
  });

  it('clears the adaptive rate when the provider has room for the configured rate', () => {
    expect(adaptiveDecision({ remaining: 900, limit: 1000, resetAt: reset(10) }, 20, now)).toEqual({ action: 'clear' });
  });

  it('pauses until the reset when the window is (nearly) spent', () => {
    const d = adaptiveDecision({ remaining: 1, limit: 10, resetAt: reset(3) }, 20, now);
    expect(d).toMatchObject({ action: 'pause', ms: 3_000 });
    if (d.action === 'pause') expect(d.reason).toMatch(/1 of 10 left/);
    expect(adaptiveDecision({ remaining: 0, resetAt: reset(1) }, 20, now)).toMatchObject({
      action: 'pause',
      ms: 1_000,
    });
  });

  it('never returns a zero rate', () => {
    const d = adaptiveDecision({ remaining: 2, resetAt: reset(86_400 * 30) }, 20, now);
    expect(d.action).toBe('slow');
    if (d.action === 'slow') expect(d.rate).toBeGreaterThan(0);
  });
});
