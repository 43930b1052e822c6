import { createHmac } from 'node:crypto';
import { header, safeEqual, VerificationError } from './verification.js';

/**
 * Svix / Standard Webhooks signature (Resend): `svix-signature` holds space-separated `v1,<base64>`
 * candidates, each an HMAC-SHA256 over `id.timestamp.rawBody` keyed with the bytes of the secret
 * after `whsec_`. One matching candidate is enough (providers sign with old and new secrets
 * during a rotation). The timestamp must be within `toleranceSecs` of now, both ways, so a
 * captured request cannot be replayed later. Computed on the raw bytes, never a re-serialised body.
 */
export function verifySvix(
  secret: string,
  headers: Record<string, string | string[] | undefined>,
  rawBody: Buffer,
  opts: { toleranceSecs: number; now?: Date },
): { id: string; timestamp: number } {
  const id = header(headers, 'svix-id') ?? header(headers, 'webhook-id');
  const ts = header(headers, 'svix-timestamp') ?? header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'svix-signature') ?? header(headers, 'webhook-signature');
  if (!id || !ts || !signatures)
    throw new VerificationError('missing svix-id, svix-timestamp or svix-signature header');
  if (!/^\d{1,12}$/.test(ts)) throw new VerificationError('svix-timestamp is not a Unix time in seconds');
  const timestamp = Number(ts);
  const now = Math.floor((opts.now ?? new Date()).getTime() / 1000);
  if (Math.abs(now - timestamp) > opts.toleranceSecs)
    throw new VerificationError(`svix-timestamp is more than ${opts.toleranceSecs} s away from now`);
  const key = Buffer.from(secret.startsWith('whsec_') ? secret.slice(6) : secret, 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${ts}.`).update(rawBody).digest('base64');
  const match = signatures.split(' ').some((candidate) => {
    const [version, signature] = candidate.split(',', 2);
    return version === 'v1' && signature !== undefined && safeEqual(signature, expected);
  });
  if (!match) throw new VerificationError('no svix-signature matches the body');
  return { id, timestamp };
}
