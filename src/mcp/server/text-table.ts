/**
 * The text an agent reads when its client shows only a tool result's text content (many do):
 * a compact, bounded table of the rows, the full rows staying in structuredContent.
 */

/** Rows shown in a table's text; the rest are counted and left to structuredContent. */
export const TEXT_TABLE_MAX_ROWS = 25;
/** Characters per cell before it is cut with "…". */
export const TEXT_CELL_MAX = 90;
/** Characters of a whole text content before it is cut (a Markdown digest stays whole below it). */
export const TEXT_MAX = 16_000;

export interface TextTable {
  rows: readonly object[];
  /** The columns worth reading, in order; nested values are written as JSON. */
  columns: readonly string[];
  /** The total when rows is a page of more (e.g. a count from the query). */
  total?: number;
}

const cell = (value: unknown): string => {
  const text =
    value === null || value === undefined ? '—' : typeof value === 'object' ? JSON.stringify(value) : String(value);
  const flat = text.replace(/\|/g, '\\|').replace(/\s*\r?\n\s*/g, ' ');
  return flat.length > TEXT_CELL_MAX ? `${flat.slice(0, TEXT_CELL_MAX - 1)}…` : flat;
};

/** A Markdown table of at most TEXT_TABLE_MAX_ROWS rows, saying how many more there are. */
export function renderTextTable(table: TextTable): string {
  const shown = table.rows.slice(0, TEXT_TABLE_MAX_ROWS);
  const lines = [
    `| ${table.columns.join(' | ')} |`,
    `|${table.columns.map(() => '---').join('|')}|`,
    ...shown.map((row) => `| ${table.columns.map((c) => cell((row as Record<string, unknown>)[c])).join(' | ')} |`),
  ];
  const more = Math.max(table.rows.length, table.total ?? 0) - shown.length;
  if (more > 0) lines.push(`(${more} more row(s): every field of every row is in structuredContent)`);
  return lines.join('\n');
}

/** One record as `field: value` lines (the scalar fields given, in order). */
export function renderFields(record: object, fields: readonly string[]): string {
  const r = record as Record<string, unknown>;
  return fields
    .filter((f) => r[f] !== undefined)
    .map((f) => `${f}: ${cell(r[f])}`)
    .join('\n');
}

/** Bounds any text content; the cut says where the rest is. */
export function boundText(text: string): string {
  return text.length <= TEXT_MAX
    ? text
    : `${text.slice(0, TEXT_MAX)}\n… (cut at ${TEXT_MAX} characters: the whole result is in structuredContent)`;
}
