import { WindowCounts } from './window-counts.js';

const MINUTE = 60_000;
const T0 = 1_000 * MINUTE; // a window boundary

describe('WindowCounts', () => {
  it('admits up to the limit per scope in a window, then says how long is left in it', () => {
    const counts = new WindowCounts();
    const at = T0 + 15_500;
    expect([1, 2, 3].map(() => counts.take('a', 3, at).allowed)).toEqual([true, true, true]);
    expect(counts.take('a', 3, at)).toEqual({ allowed: false, retryAfterSecs: 45 });
    expect(counts.take('b', 3, at)).toEqual({ allowed: true });
    expect(counts.take('a', 3, T0 + MINUTE - 10)).toEqual({ allowed: false, retryAfterSecs: 1 });
  });

  it('starts every scope afresh on the next aligned window and forgets the old ones', () => {
    const counts = new WindowCounts();
    counts.take('a', 1, T0 + 59_000);
    counts.take('b', 1, T0 + 59_000);
    expect(counts.take('a', 1, T0 + 59_500).allowed).toBe(false);
    expect(counts.take('a', 1, T0 + MINUTE).allowed).toBe(true);
    expect(counts.size).toBe(1);
  });

  it('has nothing to reconcile while idle; then writes what changed and reads every scope of the window', () => {
    const counts = new WindowCounts();
    expect(counts.pending(T0)).toBeUndefined();
    counts.take('a', 10, T0 + 1);
    counts.take('a', 10, T0 + 2);
    counts.take('b', 10, T0 + 3);
    const first = counts.pending(T0 + 4)!;
    expect(first).toEqual({
      windowStart: T0,
      writes: [
        { scope: 'a', admitted: 2 },
        { scope: 'b', admitted: 1 },
      ],
      reads: ['a', 'b'],
    });
    counts.reconciled(first, new Map());
    // Nothing new here, but the others may still spend these budgets: keep reading them.
    expect(counts.pending(T0 + 5)).toEqual({ windowStart: T0, writes: [], reads: ['a', 'b'] });
    counts.take('b', 10, T0 + 6);
    expect(counts.pending(T0 + 7)).toEqual({
      windowStart: T0,
      writes: [{ scope: 'b', admitted: 2 }],
      reads: ['a', 'b'],
    });
    // The next window, before any request: idle again.
    expect(counts.pending(T0 + MINUTE)).toBeUndefined();
  });

  it('decides on the other processes’ total plus its own count since', () => {
    const counts = new WindowCounts();
    counts.take('a', 10, T0 + 1);
    counts.reconciled(counts.pending(T0 + 2)!, new Map([['a', 7]]));
    expect([1, 2, 3].map(() => counts.take('a', 10, T0 + 3).allowed)).toEqual([true, true, false]);
  });

  it('ignores a reconciliation that comes back after its window ended', () => {
    const counts = new WindowCounts();
    counts.take('a', 5, T0 + 59_999);
    const late = counts.pending(T0 + 59_999)!;
    counts.take('a', 5, T0 + MINUTE);
    counts.reconciled(late, new Map([['a', 5]]));
    expect(counts.take('a', 5, T0 + MINUTE + 1).allowed).toBe(true);
    expect(counts.pending(T0 + MINUTE + 2)).toEqual({
      windowStart: T0 + MINUTE,
      writes: [{ scope: 'a', admitted: 2 }],
      reads: ['a'],
    });
  });
});
