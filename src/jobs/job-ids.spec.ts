import { newJobIdsLiteral } from './job-ids.js';

/** The ids of one literal, one by one. */
const newJobIds = (count: number, now?: number, fillRandom?: (buffer: Buffer) => Buffer): string[] =>
  count === 0 ? [] : newJobIdsLiteral(count, now, fillRandom).slice(1, -1).split(',');

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const millisOf = (id: string) => parseInt(id.replace(/-/g, '').slice(0, 12), 16);
/** The 26-bit counter: rand_a (12 bits) and the 14 bits after the variant. */
const counterOf = (id: string) => {
  const [, , a, b] = id.split('-');
  return (parseInt(a.slice(1), 16) << 14) | (parseInt(b, 16) & 0x3fff);
};
const increasing = (ids: string[]) => ids.every((id, i) => i === 0 || ids[i - 1] < id);

describe('newJobIdsLiteral', () => {
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
    const ids = newJobIds(20_000, Date.UTC(2026, 0, 1));
    expect(new Set(ids).size).toBe(20_000);
    expect(increasing(ids)).toBe(true);
    for (let i = 1; i < ids.length; i++) expect(counterOf(ids[i])).toBe(counterOf(ids[i - 1]) + 1);
  });

  it('from the highest random start, a large batch still increases and keeps version and variant', () => {
    const allOnes = (buffer: Buffer) => buffer.fill(0xff);
    const ids = newJobIds(100_000, Date.UTC(2026, 0, 2), allOnes);
    expect(counterOf(ids[0])).toBe(2 ** 25 - 1);
    expect(increasing(ids)).toBe(true);
    for (const id of [ids[0], ids[50_000], ids.at(-1)!]) expect(id).toMatch(UUID_V7);
  });

  it('a later call in the same millisecond continues above the earlier one; another millisecond starts afresh', () => {
    const now = Date.UTC(2026, 0, 3);
    const first = newJobIds(50, now);
    const second = newJobIds(50, now);
    expect(counterOf(second[0])).toBe(counterOf(first.at(-1)!) + 1);
    expect(increasing([...first, ...second])).toBe(true);
    const zeros = (buffer: Buffer) => buffer.fill(0);
    expect(counterOf(newJobIds(1, now + 1, zeros)[0])).toBe(0);
  });

  it('keeps the last 48 bits random for every id', () => {
    const tails = new Set(newJobIds(10_000, Date.UTC(2026, 0, 4)).map((id) => id.slice(-12)));
    expect(tails.size).toBe(10_000);
  });

  it('as a PostgreSQL array literal: braces, commas, nothing else', () => {
    const literal = newJobIdsLiteral(3, Date.UTC(2026, 0, 5));
    expect(literal).toMatch(/^\{[0-9a-f-]{36},[0-9a-f-]{36},[0-9a-f-]{36}\}$/);
    for (const id of literal.slice(1, -1).split(',')) expect(id).toMatch(UUID_V7);
    expect(newJobIdsLiteral(0)).toBe('{}');
  });

  it('refuses more ids than the counter has room for, and returns nothing for an empty insert', () => {
    expect(() => newJobIds(2 ** 25 + 1)).toThrow(RangeError);
    expect(newJobIds(0)).toEqual([]);
  });
});
