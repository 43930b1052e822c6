import { ApiError } from '../errors/api-error.js';

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
    if (Array.isArray(parsed) && parsed.length === length && parsed.every((part) => typeof part === 'string')) return parsed as string[];
  } catch {
    // fall through
  }
  throw invalidCursor();
}

/** The 400 for a cursor this API did not return (or one that decodes to a key of the wrong shape). */
export function invalidCursor(): ApiError {
  return ApiError.badRequest('invalid_cursor', 'cursor is not one this API returned; pass next_cursor from the previous page unchanged.');
}
