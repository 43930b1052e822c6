import { readCsv } from './csv-reader.js';
import { readLines } from './line-reader.js';

export type ImportFormat = 'ndjson' | 'csv';

/** A subscriber read from the file, or why its line could not be read. */
export type SubscriberLine = { line: number; item: Record<string, unknown> } | { line: number; error: string };

/** CSV columns that are subscriber fields as they are; `data.<key>` columns go into data. */
export const CSV_COLUMNS = ['id', 'email', 'phone', 'first_name', 'last_name', 'locale', 'timezone'] as const;

/** The file cannot be read on from here (a bad header, bytes that are not UTF-8). */
export class FileError extends Error {
  constructor(
    readonly reason: string,
    /** Where, when it is known. */
    readonly line?: number,
  ) {
    super(line ? `line ${line}: ${reason}` : reason);
  }
}

/** The format a file's name implies, or undefined. */
export function formatOfPath(path: string): ImportFormat | undefined {
  if (/\.csv$/i.test(path)) return 'csv';
  if (/\.(ndjson|jsonl)$/i.test(path)) return 'ndjson';
  return undefined;
}

/**
 * Subscribers from NDJSON (one JSON object per line) or CSV (a header row, then one per record).
 * `fromLine` resumes an import where an earlier run stopped: the lines before it are not read
 * (CSV's header still is), and lines keep their numbers in the whole file.
 */
export function readSubscribers(
  chunks: AsyncIterable<string>,
  format: ImportFormat,
  fromLine = 1,
): AsyncGenerator<SubscriberLine> {
  return format === 'csv' ? fromCsv(chunks, fromLine) : fromNdjson(chunks, fromLine);
}

async function* fromNdjson(chunks: AsyncIterable<string>, fromLine: number): AsyncGenerator<SubscriberLine> {
  for await (const entry of readLines(chunks)) {
    if (entry.line < fromLine) continue;
    if ('error' in entry) {
      yield entry;
      continue;
    }
    const text = entry.text.trim();
    if (!text) continue;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      yield { line: entry.line, error: `not valid JSON (${(err as Error).message})` };
      continue;
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      yield {
        line: entry.line,
        error: 'must be a JSON object, one subscriber per line, e.g. {"id": "user_123", "email": "jane@example.com"}',
      };
      continue;
    }
    yield { line: entry.line, item: value as Record<string, unknown> };
  }
}

/**
 * CSV: an empty cell leaves the field as it is (CSV cannot say null: use NDJSON to clear a
 * field). `data.<key>` cells are strings.
 */
async function* fromCsv(chunks: AsyncIterable<string>, fromLine: number): AsyncGenerator<SubscriberLine> {
  let header: string[] | undefined;
  for await (const record of readCsv(chunks, { resumeAt: fromLine })) {
    if ('error' in record) {
      if (!header) throw new FileError(`the header: ${record.error}`, record.line);
      yield record;
      continue;
    }
    if (!header) {
      header = checkHeader(record.fields, record.line);
      continue;
    }
    if (record.fields.length !== header.length) {
      yield {
        line: record.line,
        error: `${record.fields.length} fields where the header has ${header.length}; quote a field that holds a comma`,
      };
      continue;
    }
    const item: Record<string, unknown> = {};
    const data: [string, string][] = [];
    header.forEach((column, i) => {
      const value = record.fields[i];
      if (value === '') return;
      if (column.startsWith('data.')) data.push([column.slice(5), value]);
      else item[column] = value;
    });
    // fromEntries defines each key as data of its own, even one named __proto__.
    if (data.length) item.data = Object.fromEntries(data);
    yield { line: record.line, item };
  }
}

function checkHeader(fields: string[], line: number): string[] {
  const columns = fields.map((f) => f.trim());
  const known = new Set<string>(CSV_COLUMNS);
  for (const column of columns) {
    if (!known.has(column) && !/^data\..+/.test(column)) {
      throw new FileError(
        `the header's column '${column}' is not one notifyd knows: use ${CSV_COLUMNS.join(', ')} or data.<key>`,
        line,
      );
    }
  }
  const repeated = columns.find((c, i) => columns.indexOf(c) !== i);
  if (repeated) throw new FileError(`the header names '${repeated}' twice`, line);
  if (!columns.includes('id'))
    throw new FileError(`the header has no id column (columns: ${CSV_COLUMNS.join(', ')}, data.<key>)`, line);
  return columns;
}
