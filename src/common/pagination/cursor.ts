import { ApiError } from '../errors/api-error.js';
import { isUuid } from '../../domain/ids.js';

/**
 * Opaque keyset cursors: base64url of the last row's sort key. Keyset pagination stays fast
 * at any depth (OFFSET re-reads every skipped row) and never repeats or skips a row when rows
 * are inserted between pages.
 */
export function encodeCursor(key: string): string {
  return encodeCursorTuple([key]);
}

export function decodeCursor(cursor: string | undefined): string | undefined {
  return decodeCursorTuple(cursor, 1)?.[0];
}

/** A cursor over a sort key of several strings, e.g. templates' (id, channel, locale). */
export function encodeCursorTuple(key: readonly string[]): string {
  return Buffer.from(JSON.stringify(key), 'utf8').toString('base64url');
}

/** The `length` strings of a cursor from encodeCursorTuple; 400 naming `cursor` otherwise. */
export function decodeCursorTuple(cursor: string | undefined, length: number): string[] | undefined {
  if (cursor === undefined) return undefined;
  try {
    const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (Array.isArray(parsed) && parsed.length === length && parsed.every((part) => typeof part === 'string'))
      return parsed as string[];
  } catch {
    // fall through
  }
  throw invalidCursor();
}

/** The 400 for a cursor this API did not return (or one that decodes to a key of the wrong shape). */
export function invalidCursor(): ApiError {
  return ApiError.badRequest(
    'invalid_cursor',
    'cursor is not one this API returned; pass next_cursor from the previous page unchanged.',
  );
}

/** A time as PostgreSQL writes timestamptz text (`2026-11-30 10:00:00.123456+00`, `+05:30`) or as toISOString does. */
const TIMESTAMP =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})(?:\.\d{1,6})?(?:Z|[+-](\d{2})(?::?(\d{2})(?::?(\d{2}))?)?)$/;

/**
 * Whether `value` is a time PostgreSQL casts to timestamptz as the instant it names. Stricter
 * than Date.parse, which takes `"1"` (the year 2001), English dates and February 30th: such a
 * cursor reached `$n::timestamptz` and failed there with a 500.
 */
export function isTimestampKey(value: string): boolean {
  const m = TIMESTAMP.exec(value);
  if (!m) return false;
  const [year, month, day, hour, minute, second, offsetHours = 0, offsetMinutes = 0, offsetSeconds = 0] = m
    .slice(1)
    .map((part) => Number(part ?? 0));
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const daysInMonth = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
  return (
    year >= 1 &&
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    day <= daysInMonth &&
    hour <= 23 &&
    minute <= 59 &&
    second <= 59 &&
    offsetHours <= 15 &&
    offsetMinutes <= 59 &&
    offsetSeconds <= 59
  );
}

/** A cursor over (created_at, id): the last row's time as the database wrote it, and its uuid. */
export function encodeTimeIdCursor(createdAt: string, id: string): string {
  return encodeCursorTuple([createdAt, id]);
}

/** The (created_at, id) of a cursor from encodeTimeIdCursor; 400 naming `cursor` for anything PostgreSQL would not cast. */
export function decodeTimeIdCursor(cursor: string | undefined): { createdAt: string; id: string } | undefined {
  const parts = decodeCursorTuple(cursor, 2);
  if (!parts) return undefined;
  const [createdAt, id] = parts;
  if (!isTimestampKey(createdAt) || !isUuid(id)) throw invalidCursor();
  return { createdAt, id };
}
