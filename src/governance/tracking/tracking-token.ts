import { timingSafeEqual } from 'node:crypto';
import { keyedHmac } from '../../common/crypto/keyed-hmac.js';
import type { SigningKey } from '../../common/crypto/signed-claim.js';

/** An open (o) of a job, or a click (c) on one of its links. */
export type TrackingClaim =
  { kind: 'o'; jobId: string; projectId: string } | { kind: 'c'; jobId: string; projectId: string; url: string };

const mac = (secret: string, data: string) => keyedHmac(secret, data).toString('base64url').slice(0, 32);

/**
 * `<key id>.<base64url claim>.<mac of the two first parts>`: the link carries what it records,
 * where it goes and which key signed it (so keys rotate like unsubscribe keys); nothing stored.
 */
export function signTracking(claim: TrackingClaim, key: SigningKey): string {
  const body = Buffer.from(
    JSON.stringify(
      claim.kind === 'o'
        ? [claim.kind, claim.jobId, claim.projectId]
        : [claim.kind, claim.jobId, claim.projectId, claim.url],
    ),
  ).toString('base64url');
  const signed = `${key.id}.${body}`;
  return `${signed}.${mac(key.secret, signed)}`;
}

/**
 * The claim of a genuine token, else undefined. Links sent before key ids existed
 * (`<claim>.<mac>`) are checked against every accepted key; the others against the keys of
 * their id (several may share one: `j` for JWT_SECRET and JWT_PREVIOUS_SECRETS).
 */
export function verifyTracking(token: string, keys: readonly SigningKey[]): TrackingClaim | undefined {
  if (typeof token !== 'string' || token.length > 8_192) return undefined;
  const parts = token.split('.');
  if (parts.length < 2 || parts.length > 3 || parts.some((p) => !p)) return undefined;
  const [keyId, body, sig] = parts.length === 3 ? parts : [undefined, parts[0], parts[1]];
  const signed = keyId === undefined ? body : `${keyId}.${body}`;
  const given = Buffer.from(sig);
  const genuine = keys.some((k) => {
    if (keyId !== undefined && k.id !== keyId) return false;
    const expected = Buffer.from(mac(k.secret, signed));
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!genuine) return undefined;
  try {
    const a = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as unknown[];
    if (!Array.isArray(a) || typeof a[1] !== 'string' || typeof a[2] !== 'string') return undefined;
    if (a[0] === 'o' && a.length === 3) return { kind: 'o', jobId: a[1], projectId: a[2] };
    if (a[0] === 'c' && a.length === 4 && typeof a[3] === 'string' && /^https?:\/\//i.test(a[3]))
      return { kind: 'c', jobId: a[1], projectId: a[2], url: a[3] };
    return undefined;
  } catch {
    return undefined;
  }
}
