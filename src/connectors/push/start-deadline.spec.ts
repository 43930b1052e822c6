import { closingMarginMs, StartDeadline } from './start-deadline.js';

describe('StartDeadline: a push job starts only if its worst case ends within the call', () => {
  let clock = 0;
  const now = () => clock;
  const settings = { sendTimeoutMs: 30_000, outboundTimeoutMs: 10_000, fanoutConcurrency: 8, concurrency: 1 };
  beforeEach(() => (clock = 0));

  it('keeps back a margin for the dead-device delete: 1 s, or a tenth of a short call', () => {
    expect(closingMarginMs(30_000)).toBe(1_000);
    expect(closingMarginMs(2_000)).toBe(200);
  });

  it('a one-wave job starts while one outbound timeout still fits before the deadline less the margin', () => {
    const d = new StartDeadline(settings, now);
    expect(d.mayStart(1)).toBe(true); // first wave
    clock = 19_000; // 19 s + 10 s = 29 s = 30 s − 1 s margin
    expect(d.mayStart(1)).toBe(true);
    clock = 19_001;
    expect(d.mayStart(1)).toBe(false);
  });

  it('a job with more devices than PUSH_FANOUT_CONCURRENCY needs one outbound timeout per wave', () => {
    const d = new StartDeadline(settings, now);
    d.mayStart(1);
    clock = 9_000;
    expect(d.mayStart(17)).toBe(false); // 3 waves: 9 + 30 s > 29 s
    expect(d.mayStart(16)).toBe(true); // 2 waves: 9 + 20 s = 29 s
    clock = 9_001;
    expect(d.mayStart(16)).toBe(false);
  });

  it('the first wave always starts, even when the send timeout is shorter than the outbound one', () => {
    const d = new StartDeadline({ ...settings, sendTimeoutMs: 5_000, concurrency: 2 }, now);
    expect(d.mayStart(1)).toBe(true);
    expect(d.mayStart(40)).toBe(true);
    expect(d.mayStart(1)).toBe(false);
  });
});
