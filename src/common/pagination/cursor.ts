import { ApiError } from '../errors/api-error.js';

/**
 * Opaque keyset cursors: base64url of the last row's sort key. Keyset pagination stays fast
 * at any depth (OFFSET re-reads every skipped row) and never repeats or skips a row when rows
 * are inserted between pages.
 */
export function encodeCursor(key: string): string {
  return Buffer.from(JSON.stringify([key]), 'utf8').toString('base64url');
}

export function decodeCursor(cursor: string | undefined): string | undefined {
  if (cursor === undefined) return undefined;
  try {
    const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (Array.isArray(parsed) && typeof parsed[0] === 'string') return parsed[0];
  } catch {
    // fall through
  }
  throw ApiError.badRequest('invalid_cursor', 'cursor is not one this API returned; pass next_cursor from the previous page unchanged.');
}
