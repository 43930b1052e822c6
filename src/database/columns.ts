/**
 * A batch of rows as one array per field, in the order named: the parameters of a statement
 * that unnests them back into rows (`unnest($1::text[], $2::int[], …)`), so that N rows cost
 * one statement. Field names are checked against the row type.
 */
export function columnsOf<T, K extends keyof T>(rows: readonly T[], ...fields: K[]): T[K][][] {
  return fields.map((field) => rows.map((row) => row[field]));
}
