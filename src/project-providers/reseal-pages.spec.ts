import { resealInPages } from './reseal-pages.js';

describe('resealInPages', () => {
  // 250 rows sealed with an old key: three pages of 100, 100 and 50.
  const rows = Array.from({ length: 250 }, (_, i) => ({ id: i + 1 }));

  it('pages after the last row read, counts the rows re-sealed and names the unreadable ones', async () => {
    const pagesAfter: (number | undefined)[] = [];
    const result = await resealInPages({
      page: async (last: { id: number } | undefined, size) => {
        pagesAfter.push(last?.id);
        const from = last?.id ?? 0;
        return rows.slice(from, from + size);
      },
      reseal: async (row) => {
        if (row.id === 7) throw new Error('no configured key opens it');
        return row.id !== 8; // changed meanwhile: left alone, not counted
      },
      name: (row) => `row/${row.id}`,
    });
    expect(pagesAfter).toEqual([undefined, 100, 200]);
    expect(result).toEqual({ resealed: 248, unreadable: ['row/7'] });
  });

  it('reads one more (empty) page when the last page is full', async () => {
    let reads = 0;
    const result = await resealInPages({
      page: async (last: { id: number } | undefined, size) => {
        reads++;
        const from = last?.id ?? 0;
        return rows.slice(from, Math.min(from + size, 200));
      },
      reseal: async () => true,
      name: (row) => String(row.id),
    });
    expect(reads).toBe(3);
    expect(result).toEqual({ resealed: 200, unreadable: [] });
  });
});
