import { FairClocks } from './fair-clocks.js';

const key = (projectId: string) => ({ projectId, channel: 'email', priority: 50 });

describe('FairClocks', () => {
  it('moves a clock from max(clock, now) by the span, so a campaign takes the slots ahead and a newcomer starts now', () => {
    const clocks = new FairClocks();
    // A 5 000-message campaign at 10 messages/s: 500 s of lane time from now (t = 0).
    expect(clocks.advance(key('big'), 500, 0)).toBe(500_000);
    // Another project's one message a second later takes the slot of that second, not the 501st.
    expect(clocks.advance(key('small'), 0.1, 1_000)).toBe(1_100);
    // The campaign's next message queues behind its own.
    expect(clocks.advance(key('big'), 0.1, 2_000)).toBe(500_100);
    // A clock in the past restarts at now.
    expect(clocks.advance(key('small'), 0.1, 60_000)).toBe(60_100);
  });

  it('owes the shared clock what it advanced since the last reconciliation, once', () => {
    const clocks = new FairClocks();
    clocks.advance(key('a'), 2, 0);
    clocks.advance(key('a'), 3, 0);
    clocks.advance(key('b'), 1, 0);
    expect(clocks.dirty).toBe(true);
    expect(clocks.takeDeltas()).toEqual([
      { projectId: 'a', channel: 'email', priority: 50, spanSecs: 5 },
      { projectId: 'b', channel: 'email', priority: 50, spanSecs: 1 },
    ]);
    expect(clocks.dirty).toBe(false);
    expect(clocks.takeDeltas()).toEqual([]);
  });

  it('adopts the shared clock (other replicas advanced it too) and keeps what it advanced meanwhile on top', () => {
    const clocks = new FairClocks();
    clocks.advance(key('a'), 5, 0); // local clock 5 000
    clocks.takeDeltas();
    clocks.advance(key('a'), 1, 0); // while the reconciliation runs: local 6 000, 1 s pending
    // The shared clock says 12 000: another replica queued 7 s for this project too.
    clocks.adopt(key('a'), 12_000);
    expect(clocks.advance(key('a'), 0, 0)).toBe(13_000);
  });

  it('gives a failed reconciliation its spans back for the next one', () => {
    const clocks = new FairClocks();
    clocks.advance(key('a'), 4, 0);
    const deltas = clocks.takeDeltas();
    clocks.restore(deltas);
    expect(clocks.takeDeltas()).toEqual(deltas);
  });

  it('forgets clocks in the past that owe nothing, and keeps the rest', () => {
    const clocks = new FairClocks();
    clocks.advance(key('past'), 1, 0);
    clocks.advance(key('ahead'), 100, 0);
    clocks.takeDeltas();
    clocks.advance(key('owing'), 1, 0);
    clocks.evictIdle(50_000);
    expect(clocks.size).toBe(2);
  });
});
