import { timingSafeEqual } from 'node:crypto';
import { keyedHmac } from '../../common/crypto/keyed-hmac.js';
import type { SigningKey } from '../../common/unsubscribe/unsubscribe-token.js';

/** What a preference-center link stands for: one subscriber of one project, until it expires. */
export interface PreferenceClaim {
  projectId: string;
  subscriberId: string;
  /** Expiry, seconds since the epoch. */
  expiresAt: number;
}

/** The unsubscribe links' lifetime (400 days): a preference link sits in the same mailboxes. */
export { TOKEN_LIFETIME_SECONDS } from '../../common/unsubscribe/unsubscribe-token.js';

// Its own version prefix and its own secret (link-keys.ts): never interchangeable with an unsubscribe token.
const VERSION = 'p1';

const mac = (secret: string, data: string) => keyedHmac(secret, data).toString('base64url');

/** `p1.<key id>.<base64url JSON claim>.<base64url HMAC-SHA256 of the three first parts>`; nothing stored. */
export function signPreferenceToken(claim: PreferenceClaim, key: SigningKey): string {
  const body = Buffer.from(JSON.stringify({ p: claim.projectId, s: claim.subscriberId, e: claim.expiresAt })).toString('base64url');
  const signed = `${VERSION}.${key.id}.${body}`;
  return `${signed}.${mac(key.secret, signed)}`;
}

/**
 * The claim of a genuine, unexpired token; undefined for anything else (never throws). Keys are
 * tried as for unsubscribe links: every key of the token's id (the JWT-derived keys share `j`).
 */
export function verifyPreferenceToken(token: string, keys: readonly SigningKey[], nowSeconds = Math.floor(Date.now() / 1000)): PreferenceClaim | undefined {
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
    if (typeof c.p !== 'string' || typeof c.s !== 'string' || typeof c.e !== 'number' || c.e < nowSeconds) return undefined;
    return { projectId: c.p, subscriberId: c.s, expiresAt: c.e };
  } catch {
    return undefined;
  }
}
