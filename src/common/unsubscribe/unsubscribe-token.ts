import { timingSafeEqual } from 'node:crypto';
import { keyedHmac } from '../crypto/keyed-hmac.js';

/** What an unsubscribe link stands for: one address of one project, optionally one topic. */
export interface UnsubscribeClaim {
  projectId: string;
  channel: string;
  address: string;
  topic: string | null;
  /** Expiry, seconds since the epoch. */
  expiresAt: number;
}

export interface SigningKey {
  id: string;
  secret: string;
}

/** notifyd keeps links valid for 400 days (longer than any mailbox keeps a newsletter). */
export const TOKEN_LIFETIME_SECONDS = 400 * 86_400;
const VERSION = 'u1';

const mac = (secret: string, data: string) => keyedHmac(secret, data).toString('base64url');

/**
 * `u1.<key id>.<base64url JSON claim>.<base64url HMAC-SHA256 of the three first parts>`.
 * Nothing is stored: the link carries its claim, and the key id picks the key to verify with.
 */
export function signUnsubscribeToken(claim: UnsubscribeClaim, key: SigningKey): string {
  const body = Buffer.from(JSON.stringify({ p: claim.projectId, c: claim.channel, a: claim.address, t: claim.topic ?? undefined, e: claim.expiresAt })).toString('base64url');
  const signed = `${VERSION}.${key.id}.${body}`;
  return `${signed}.${mac(key.secret, signed)}`;
}

/**
 * The claim of a genuine, unexpired token; undefined for anything else (never throws). Several
 * keys may share an id: the keys derived from JWT_SECRET and JWT_PREVIOUS_SECRETS are all `j`,
 * and each is tried.
 */
export function verifyUnsubscribeToken(token: string, keys: readonly SigningKey[], nowSeconds = Math.floor(Date.now() / 1000)): UnsubscribeClaim | undefined {
  if (typeof token !== 'string' || token.length > 2_048) return undefined;
  const parts = token.split('.');
  if (parts.length !== 4 || parts[0] !== VERSION) return undefined;
  const signed = parts.slice(0, 3).join('.');
  const given = Buffer.from(parts[3]);
  const genuine = keys.some((k) => {
    if (k.id !== parts[1]) return false;
    const expected = Buffer.from(mac(k.secret, signed));
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!genuine) return undefined;
  try {
    const c = JSON.parse(Buffer.from(parts[2], 'base64url').toString('utf8')) as Record<string, unknown>;
    if (typeof c.p !== 'string' || typeof c.c !== 'string' || typeof c.a !== 'string' || typeof c.e !== 'number') return undefined;
    if (c.t !== undefined && typeof c.t !== 'string') return undefined;
    if (c.e < nowSeconds) return undefined;
    return { projectId: c.p, channel: c.c, address: c.a, topic: (c.t as string | undefined) ?? null, expiresAt: c.e };
  } catch {
    return undefined;
  }
}
