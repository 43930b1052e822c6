import { MAX_TOKEN_HOURS } from '../auth/subscriber-tokens.js';

/**
 * The longest a stream waits for its token's expiry. Tokens live at most MAX_TOKEN_HOURS, so a
 * longer wait cannot come from a token notifyd accepted; clamped all the same, since a timer
 * past 2^31-1 ms (about 24.8 days) fires at once.
 */
const MAX_WAIT_MS = MAX_TOKEN_HOURS * 3_600_000;

/**
 * Ends a stream when the subscriber token that opened it (or the token its ticket was minted
 * from) expires, as REST refuses that token from then on; the client reconnects and its expired
 * token is refused. One timer per stream, unref'd (an open stream does not keep the process
 * alive); call the returned function when the stream closes first.
 */
export function endAtExpiry(connection: { end(): void }, expiresAt: Date, now = Date.now()): () => void {
  const wait = Math.min(Math.max(expiresAt.getTime() - now, 0), MAX_WAIT_MS);
  const timer = setTimeout(() => connection.end(), wait);
  timer.unref();
  return () => clearTimeout(timer);
}
