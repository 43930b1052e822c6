import { encodeTimeIdCursor } from './cursor.js';

/** A keyset page as the services return it: its rows, the cursor of the next page (null on the last) and its size. */
export interface CursorPage<Row> {
  items: Row[];
  nextCursor: string | null;
  limit: number;
}

/**
 * The page of a keyset read over (created_at, id) that asked for `limit + 1` rows: the extra row
 * only tells that a next page exists, which starts after the last row kept.
 */
export function timeIdPage<Row extends { createdKey: string; id: string }>(
  rows: Row[],
  limit: number,
): CursorPage<Row> {
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  return { items, nextCursor: rows.length > limit ? encodeTimeIdCursor(last.createdKey, last.id) : null, limit };
}

/** A cursor page as the list routes answer it, `{ items, next_cursor, limit }`, each row presented. */
export function presentCursorPage<Row, Item>(
  page: CursorPage<Row>,
  present: (row: Row) => Item,
): { items: Item[]; next_cursor: string | null; limit: number } {
  return { items: page.items.map((row) => present(row)), next_cursor: page.nextCursor, limit: page.limit };
}
