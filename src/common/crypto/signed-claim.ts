import { timingSafeEqual } from 'node:crypto';
import { keyedHmac } from './keyed-hmac.js';

/** A key that signs links: its id travels in the token and picks the key to verify with. */
export interface SigningKey {
  id: string;
  secret: string;
}

const mac = (secret: string, data: string) => keyedHmac(secret, data).toString('base64url');

/**
 * `<version>.<key id>.<base64url JSON claim>.<base64url HMAC-SHA256 of the three first parts>`:
 * a link that carries its own claim, so nothing is stored. The version keeps kinds of links
 * apart (an unsubscribe token never passes for a preference token), besides their own secrets.
 */
export function signClaim(version: string, claim: Record<string, unknown>, key: SigningKey): string {
  const signed = `${version}.${key.id}.${Buffer.from(JSON.stringify(claim)).toString('base64url')}`;
  return `${signed}.${mac(key.secret, signed)}`;
}

/**
 * The JSON claim of a genuine token of this version; undefined for anything else (never throws).
 * Several keys may share an id (the keys derived from JWT_SECRET and JWT_PREVIOUS_SECRETS are all
 * `j`): each is tried, in constant time per key. The caller checks the claim's fields and expiry.
 */
export function verifiedClaim(
  token: string,
  version: string,
  keys: readonly SigningKey[],
): Record<string, unknown> | undefined {
  if (typeof token !== 'string' || token.length > 2_048) return undefined;
  const parts = token.split('.');
  if (parts.length !== 4 || parts[0] !== version) return undefined;
  const signed = parts.slice(0, 3).join('.');
  const given = Buffer.from(parts[3]);
  const genuine = keys.some((k) => {
    if (k.id !== parts[1]) return false;
    const expected = Buffer.from(mac(k.secret, signed));
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!genuine) return undefined;
  try {
    const claim: unknown = JSON.parse(Buffer.from(parts[2], 'base64url').toString('utf8'));
    return claim !== null && typeof claim === 'object' && !Array.isArray(claim)
      ? (claim as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
