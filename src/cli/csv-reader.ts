/**
 * A streaming CSV reader (RFC 4180): fields separated by commas, records by CRLF or LF (a lone
 * CR too), fields in double quotes may hold commas, line breaks and doubled quotes (`""`).
 * Text arrives in chunks of any size and records leave one at a time, so memory stays bounded
 * by the longest record, not the file. (The project has no CSV dependency, and this is all an
 * import needs.)
 *
 * A record with a misplaced quote is reported by the line it starts on and reading goes on
 * with the next one. A quoted field that is never closed, or a record longer than
 * MAX_RECORD_CHARS, leaves no way to tell where the next record starts: that throws CsvError.
 */

/** Longest record accepted; past it, a quote was surely left open. */
export const MAX_RECORD_CHARS = 1024 * 1024;

export type CsvRecord = { line: number; fields: string[] } | { line: number; error: string };

/** The file cannot be read past `line`: the records after it are unknowable. */
export class CsvError extends Error {
  constructor(
    readonly line: number,
    readonly reason: string,
  ) {
    super(`line ${line}: ${reason}`);
  }
}

const enum State {
  /** At the start of a field: a quote opens a quoted field. */
  FieldStart,
  Unquoted,
  Quoted,
  /** A quote inside a quoted field: either the first of `""` or the closing one. */
  QuoteInQuoted,
}

const LATE_QUOTE =
  'a double quote inside an unquoted field; quote the whole field and double the quote, e.g. "say ""hi"""';
const AFTER_CLOSE =
  'text after a closing double quote; a quoted field must end at the comma or the line end, with inner quotes doubled ("")';

/**
 * `resumeAt` (a resumed import): after the first record (the header), the text up to line
 * `resumeAt` is passed over unread, line breaks counted as everywhere else, so numbering goes
 * on as in the whole file and a broken record in between (a quote never closed) is not parsed.
 * Reading resumes as at the start of a record: give it a line a record starts on.
 */
export async function* readCsv(
  chunks: AsyncIterable<string>,
  { resumeAt = 1 }: { resumeAt?: number } = {},
): AsyncGenerator<CsvRecord> {
  let state = State.FieldStart;
  let fields: string[] = [];
  let field = '';
  let recordChars = 0;
  let recordError: string | undefined;
  let line = 1;
  let recordLine = 1;
  /** A CR ended the last line: an LF right after it is the same line break. */
  let afterCr = false;
  /** Whether the current record has anything at all (an empty line is skipped, not a record). */
  let started = false;
  let records = 0;
  /** Between the first record and line `resumeAt`: only line breaks are looked at. */
  let passing = false;

  const endRecord = (): CsvRecord | undefined => {
    fields.push(field);
    const record: CsvRecord | undefined = !started
      ? undefined
      : recordError
        ? { line: recordLine, error: recordError }
        : { line: recordLine, fields };
    fields = [];
    field = '';
    recordChars = 0;
    recordError = undefined;
    started = false;
    state = State.FieldStart;
    return record;
  };

  for await (const chunk of chunks) {
    for (let i = 0; i < chunk.length; i++) {
      const ch = chunk[i];
      if (afterCr) {
        afterCr = false;
        if (ch === '\n') continue;
      }
      if (passing) {
        if (ch === '\n' || ch === '\r') {
          line++;
          afterCr = ch === '\r';
          passing = line < resumeAt;
        }
        continue;
      }
      if (!started) {
        started = ch !== '\n' && ch !== '\r';
        recordLine = line;
      }
      if (++recordChars > MAX_RECORD_CHARS) {
        throw new CsvError(
          recordLine,
          `a record longer than ${MAX_RECORD_CHARS} characters: is a closing double quote missing?`,
        );
      }
      if (state === State.Quoted) {
        if (ch === '"') state = State.QuoteInQuoted;
        else {
          if (ch === '\n') line++;
          field += ch;
        }
        continue;
      }
      if (state === State.QuoteInQuoted) {
        if (ch === '"') {
          field += '"';
          state = State.Quoted;
          continue;
        }
        if (ch !== ',' && ch !== '\n' && ch !== '\r') {
          recordError ??= AFTER_CLOSE;
          state = State.Unquoted;
          field += ch;
          continue;
        }
        // The closing quote: the comma or line break is handled below.
      }
      if (ch === ',') {
        fields.push(field);
        field = '';
        state = State.FieldStart;
      } else if (ch === '\n' || ch === '\r') {
        line++;
        afterCr = ch === '\r';
        const record = endRecord();
        if (record) {
          yield record;
          passing = ++records === 1 && line < resumeAt;
        }
      } else if (ch === '"' && state === State.FieldStart) {
        state = State.Quoted;
      } else {
        if (ch === '"') recordError ??= LATE_QUOTE;
        field += ch;
        state = State.Unquoted;
      }
    }
  }
  if (state === State.Quoted) throw new CsvError(recordLine, 'a double quote opened here is never closed');
  const last = endRecord();
  if (last) yield last;
}
