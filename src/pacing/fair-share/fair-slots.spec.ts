import { FixedClock } from '../../config/clock.js';
import { FairClocks } from './fair-clocks.js';
import { FAIR_GRID_MS, fairSlots } from './fair-slots.js';

// Email at 8 provider calls/s and 100 messages per call: 1/800 s of lane time per message; SMS 10 messages/s.
const step = (channel: string) => (channel === 'email' ? 1 / 800 : channel === 'sms' ? 0.1 : 0);
const due = (channel: 'email' | 'sms' | 'in_app', at: Date) => ({ channel, scheduledAt: at });

describe('fairSlots', () => {
  it('spaces a project’s due jobs at the lane rate on the 250 ms grid, and queues a second call behind the first', () => {
    const clock = new FixedClock(Date.parse('2026-12-01T10:00:00Z'));
    const clocks = new FairClocks();
    const now = clock.now();
    const slots = fairSlots(
      clocks,
      'a',
      50,
      Array.from({ length: 30 }, () => due('sms', now)),
      step,
      clock.nowMs(),
    );
    expect(slots[0]!.getTime()).toBe(clock.nowMs());
    expect(slots[29]!.getTime()).toBe(clock.nowMs() + Math.floor(2_900 / FAIR_GRID_MS) * FAIR_GRID_MS);
    const next = fairSlots(clocks, 'a', 50, [due('sms', now)], step, clock.nowMs());
    expect(next[0]!.getTime()).toBe(clock.nowMs() + 3_000);
  });

  it('lets another project take the slots of now while a campaign holds the lane ahead', () => {
    const clock = new FixedClock(Date.parse('2026-12-01T10:00:00Z'));
    const clocks = new FairClocks();
    fairSlots(
      clocks,
      'campaign',
      80,
      Array.from({ length: 5_000 }, () => due('sms', clock.now())),
      step,
      clock.nowMs(),
    );
    clock.advance(1_000);
    const [mine] = fairSlots(clocks, 'small', 80, [due('sms', clock.now())], step, clock.nowMs());
    expect(mine!.getTime()).toBe(clock.nowMs());
  });

  it('leaves scheduled sends, unpaced lanes and in-app alone', () => {
    const clock = new FixedClock(Date.parse('2026-12-01T10:00:00Z'));
    const later = new Date(clock.nowMs() + 60_000);
    const slots = fairSlots(
      new FairClocks(),
      'a',
      50,
      [due('sms', later), due('in_app', clock.now()), due('email', clock.now())],
      step,
      clock.nowMs(),
    );
    expect(slots[0]).toBeUndefined();
    expect(slots[1]).toBeUndefined();
    expect(slots[2]!.getTime()).toBe(clock.nowMs());
  });
});
