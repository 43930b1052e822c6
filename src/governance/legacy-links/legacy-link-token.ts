import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The links notifyd 0.x (the Rust notifyd) put in email: `base64url(payload).base64url(mac)`,
 * both unpadded, the mac an HMAC-SHA256 of the raw payload keyed by the bytes of 0.x's
 * JWT_SECRET. Payloads: unsubscribe `project|email|exp[|topic]` (email lower-cased, exp in Unix
 * seconds), open `o|<job>`, click `c|<job>|<url>`. Only verified here, never signed: new links
 * use notifyd's own formats (unsubscribe-token.ts, tracking-token.ts).
 */

/** What a 0.x unsubscribe link stands for (always email: 0.x unsubscribed email only). */
export interface LegacyUnsubscribeClaim {
  projectId: string;
  address: string;
  topic: string | null;
  expiresAt: number;
}

export type LegacyTrackingClaim = { kind: 'o'; jobId: string } | { kind: 'c'; jobId: string; url: string };

const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** The payload of a genuine token, else undefined (never throws). */
function verifiedPayload(token: string, secret: string): string | undefined {
  if (typeof token !== 'string' || token.length > 8_192) return undefined;
  const parts = token.split('.');
  if (parts.length !== 2 || !BASE64URL.test(parts[0]) || !BASE64URL.test(parts[1])) return undefined;
  const payload = Buffer.from(parts[0], 'base64url').toString('utf8');
  const expected = createHmac('sha256', secret).update(payload, 'utf8').digest();
  const given = Buffer.from(parts[1], 'base64url');
  return given.length === expected.length && timingSafeEqual(given, expected) ? payload : undefined;
}

/** A genuine, unexpired 0.x unsubscribe token's claim, else undefined. */
export function verifyLegacyUnsubscribeToken(
  token: string,
  secret: string | undefined,
  nowSeconds = Math.floor(Date.now() / 1000),
): LegacyUnsubscribeClaim | undefined {
  if (!secret) return undefined;
  const payload = verifiedPayload(token, secret);
  if (payload === undefined) return undefined;
  const fields = payload.split('|');
  if (fields.length !== 3 && fields.length !== 4) return undefined;
  const [projectId, email, exp, topic] = fields;
  if (!projectId || !email.includes('@') || !/^\d{1,12}$/.test(exp)) return undefined;
  if (Number(exp) < nowSeconds) return undefined;
  return { projectId, address: email.toLowerCase(), topic: topic || null, expiresAt: Number(exp) };
}

/** A genuine 0.x open or click token's claim (click URLs must be http(s)), else undefined. 0.x tracking links never expire. */
export function verifyLegacyTrackingToken(token: string, secret: string | undefined): LegacyTrackingClaim | undefined {
  if (!secret) return undefined;
  const payload = verifiedPayload(token, secret);
  if (payload === undefined) return undefined;
  if (payload.startsWith('o|')) {
    const jobId = payload.slice(2);
    return jobId && !jobId.includes('|') ? { kind: 'o', jobId } : undefined;
  }
  if (payload.startsWith('c|')) {
    // The URL may itself contain '|': only the first two separate fields.
    const rest = payload.slice(2);
    const bar = rest.indexOf('|');
    if (bar <= 0) return undefined;
    const url = rest.slice(bar + 1);
    return /^https?:\/\/[^\s]+$/i.test(url) ? { kind: 'c', jobId: rest.slice(0, bar), url } : undefined;
  }
  return undefined;
}
