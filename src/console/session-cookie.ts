import { createHash, randomBytes } from 'node:crypto';

/** The console's session cookie: HttpOnly, so page scripts never see it. */
export const SESSION_COOKIE = 'notifyd_console';

/** The header every change made with a session must carry (double submit: see csrfTokenFor). */
export const CSRF_HEADER = 'x-csrf-token';

/** A session lives this long from sign-in, whatever its activity (docs/CONSOLE.md). */
export const SESSION_TTL_SECS = 8 * 3600;

/** 256 random bits, base64url: the cookie's value. */
export function newSessionToken(): string {
  return randomBytes(32).toString('base64url');
}

export function sessionTokenHash(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/**
 * The CSRF token of a session, derived from its cookie (so nothing more is stored): the page
 * reads it from POST/GET /console/session and sends it as X-CSRF-Token. Another site can make
 * the browser send the cookie (not with SameSite=Strict, but defence in depth) yet can neither
 * read the cookie nor this token, so it cannot forge the header.
 */
export function csrfTokenFor(token: string): string {
  return createHash('sha256').update(`csrf:${token}`, 'utf8').digest('base64url');
}

/** The session token in a Cookie header, if any (only our cookie's first occurrence counts). */
export function sessionTokenFrom(cookieHeader: string | string[] | undefined): string | undefined {
  const header = Array.isArray(cookieHeader) ? cookieHeader.join('; ') : cookieHeader;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() !== SESSION_COOKIE) continue;
    const value = part.slice(eq + 1).trim();
    return /^[A-Za-z0-9_-]{43}$/.test(value) ? value : undefined;
  }
  return undefined;
}

/** Set-Cookie for a new session; Secure when the request came over HTTPS (directly or via a trusted proxy). */
export function sessionCookie(token: string, secure: boolean): string {
  return `${SESSION_COOKIE}=${token}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${SESSION_TTL_SECS}${secure ? '; Secure' : ''}`;
}

/** Set-Cookie that makes the browser forget the session cookie. */
export function clearedSessionCookie(secure: boolean): string {
  return `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0${secure ? '; Secure' : ''}`;
}
