import { createHmac, timingSafeEqual } from 'node:crypto';

/** An open (o) of a job, or a click (c) on one of its links. */
export type TrackingClaim = { kind: 'o'; jobId: string; projectId: string } | { kind: 'c'; jobId: string; projectId: string; url: string };

const mac = (secret: string, data: string) => createHmac('sha256', secret).update(data).digest('base64url').slice(0, 32);

/** `<base64url claim>.<mac>`: the link carries what it records and where it goes; nothing stored. */
export function signTracking(claim: TrackingClaim, secret: string): string {
  const body = Buffer.from(JSON.stringify(claim.kind === 'o' ? [claim.kind, claim.jobId, claim.projectId] : [claim.kind, claim.jobId, claim.projectId, claim.url])).toString('base64url');
  return `${body}.${mac(secret, body)}`;
}

export function verifyTracking(token: string, secret: string): TrackingClaim | undefined {
  if (typeof token !== 'string' || token.length > 8_192) return undefined;
  const [body, sig, extra] = token.split('.');
  if (!body || !sig || extra !== undefined) return undefined;
  const expected = Buffer.from(mac(secret, body));
  const given = Buffer.from(sig);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  try {
    const a = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as unknown[];
    if (!Array.isArray(a) || typeof a[1] !== 'string' || typeof a[2] !== 'string') return undefined;
    if (a[0] === 'o' && a.length === 3) return { kind: 'o', jobId: a[1], projectId: a[2] };
    if (a[0] === 'c' && a.length === 4 && typeof a[3] === 'string' && /^https?:\/\//i.test(a[3])) return { kind: 'c', jobId: a[1], projectId: a[2], url: a[3] };
    return undefined;
  } catch {
    return undefined;
  }
}
