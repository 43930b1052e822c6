/** What a key rotation did: rows sealed again with the current key, and the rows no configured key opens. */
export interface ResealResult {
  resealed: number;
  unreadable: string[];
}

/** Rows read per reseal round. */
const RESEAL_PAGE = 100;

/**
 * Key rotation over one table of sealed rows, a page at a time (keyset paging after the last
 * row read). A row that cannot be re-sealed (no configured key opens it, or its write fails) is
 * named in `unreadable` and the rotation goes on with the next one.
 */
export async function resealInPages<R>(table: {
  /** The next page of rows sealed with another key than the current one, after `last` (undefined: from the start). */
  page(last: R | undefined, size: number): Promise<R[]>;
  /** Seals the row again with the current key; false when the row changed meanwhile and was left alone. */
  reseal(row: R): Promise<boolean>;
  /** How `unreadable` names a row. */
  name(row: R): string;
}): Promise<ResealResult> {
  const result: ResealResult = { resealed: 0, unreadable: [] };
  let last: R | undefined;
  for (;;) {
    const rows = await table.page(last, RESEAL_PAGE);
    for (const row of rows) {
      try {
        if (await table.reseal(row)) result.resealed++;
      } catch {
        result.unreadable.push(table.name(row));
      }
    }
    if (rows.length < RESEAL_PAGE) return result;
    last = rows[rows.length - 1];
  }
}
