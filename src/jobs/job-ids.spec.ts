import { newJobIds } from './job-ids.js';

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const millisOf = (id: string) => parseInt(id.replace(/-/g, '').slice(0, 12), 16);

describe('newJobIds', () => {
  it('makes UUIDv7 ids carrying the given millisecond', () => {
    const now = Date.UTC(2026, 10, 30, 12, 34, 56, 789);
    const ids = newJobIds(3, now);
    expect(ids).toHaveLength(3);
    for (const id of ids) {
      expect(id).toMatch(UUID_V7);
      expect(millisOf(id)).toBe(now);
    }
  });

  it('counts up through one batch, so PostgreSQL appends them to the primary key in order', () => {
    const ids = newJobIds(20_000);
    expect(new Set(ids).size).toBe(20_000);
    for (let i = 1; i < ids.length; i++) expect(ids[i - 1] < ids[i]).toBe(true);
  });

  it('keeps ids of separate batches in the same millisecond apart (random counter start and tail)', () => {
    const now = Date.now();
    const all = new Set<string>();
    for (let batch = 0; batch < 200; batch++) for (const id of newJobIds(50, now)) all.add(id);
    expect(all.size).toBe(10_000);
    // The 48-bit tail is random, not derived from the counter: two batches never share one.
    const tails = new Set([...all].map((id) => id.slice(-12)));
    expect(tails.size).toBe(10_000);
  });

  it('returns nothing for an empty insert', () => expect(newJobIds(0)).toEqual([]));
});
