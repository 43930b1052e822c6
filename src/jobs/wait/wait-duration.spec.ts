import { MAX_WAIT_MS, parseWait } from './wait-duration.js';

describe('wait durations', () => {
  it('reads seconds and milliseconds', () => {
    expect(parseWait('10s')).toBe(10_000);
    expect(parseWait('500ms')).toBe(500);
    expect(parseWait(' 0s ')).toBe(0);
    expect(parseWait('30s')).toBe(MAX_WAIT_MS);
  });

  it('refuses anything unbounded, unitless or not text', () => {
    for (const bad of ['31s', '30001ms', '10', '1m', '1.5s', '-1s', 'soon', '', 10, null, undefined])
      expect(parseWait(bad)).toBeUndefined();
  });
});
