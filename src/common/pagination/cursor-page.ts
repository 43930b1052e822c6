/** A keyset page as the services return it: its rows, the cursor of the next page (null on the last) and its size. */
export interface CursorPage<Row> {
  items: Row[];
  nextCursor: string | null;
  limit: number;
}

/** A cursor page as the list routes answer it, `{ items, next_cursor, limit }`, each row presented. */
export function presentCursorPage<Row, Item>(
  page: CursorPage<Row>,
  present: (row: Row) => Item,
): { items: Item[]; next_cursor: string | null; limit: number } {
  return { items: page.items.map((row) => present(row)), next_cursor: page.nextCursor, limit: page.limit };
}
