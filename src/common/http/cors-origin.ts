import { Logger } from '@nestjs/common';

/** A refused origin is logged at most once per this many ms (a page retries on every poll). */
const LOG_EVERY_MS = 60_000;
/** Origins remembered for that throttle; beyond it the oldest is forgotten (bounded memory). */
const REMEMBERED = 200;

type OriginCallback = (err: Error | null, allow: boolean) => void;

/**
 * The CORS origin check. A browser whose origin is not allowed gets no CORS headers, and the
 * page only sees a network error (the inbox bell stayed silently empty): so notifyd says it
 * too, in its log, with the origin refused and the variable that allows it.
 */
export function corsOriginCheck(
  allowed: readonly string[],
  logger = new Logger('Cors'),
  now: () => number = Date.now,
): true | ((origin: string | undefined, cb: OriginCallback) => void) {
  if (allowed.length === 0) return true;
  const set = new Set(allowed);
  const lastLogged = new Map<string, number>();
  return (origin, cb) => {
    // No Origin header: not a cross-origin browser request (curl, a server, same-origin GET).
    if (origin === undefined || set.has(origin)) return cb(null, true);
    const at = now();
    const last = lastLogged.get(origin);
    if (last === undefined || at - last >= LOG_EVERY_MS) {
      lastLogged.delete(origin);
      lastLogged.set(origin, at);
      if (lastLogged.size > REMEMBERED) lastLogged.delete(lastLogged.keys().next().value!);
      logger.warn(
        `CORS: refused a browser request from origin ${JSON.stringify(origin.slice(0, 200))}: it is not in CORS_ORIGINS (${allowed.join(', ')}). ` +
          'Add it to CORS_ORIGINS (comma-separated) and restart, or run `npm run dev`, which allows localhost origins.',
      );
    }
    cb(null, false);
  };
}
