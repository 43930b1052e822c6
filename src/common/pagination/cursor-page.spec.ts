import { decodeTimeIdCursor } from './cursor.js';
import { timeIdPage } from './cursor-page.js';

describe('timeIdPage', () => {
  const row = (n: number) => ({
    id: `0197a000-0000-7000-8000-00000000000${n}`,
    createdKey: `2026-11-30 10:00:0${n}+00`,
  });

  it('keeps limit rows and points the next page after the last one kept when the read found one more', () => {
    const page = timeIdPage([row(3), row(2), row(1)], 2);
    expect(page.items).toEqual([row(3), row(2)]);
    expect(page.limit).toBe(2);
    expect(decodeTimeIdCursor(page.nextCursor!)).toEqual({ createdAt: row(2).createdKey, id: row(2).id });
  });

  it.each([
    ['a full last page', [row(2), row(1)]],
    ['a short last page', [row(1)]],
    ['no rows', []],
  ])('has no next page on %s', (_, rows) => {
    expect(timeIdPage(rows, 2)).toEqual({ items: rows, nextCursor: null, limit: 2 });
  });
});
