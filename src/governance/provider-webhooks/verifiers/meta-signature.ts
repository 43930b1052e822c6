import { createHmac } from 'node:crypto';
import { safeEqual, VerificationError } from './verification.js';

/**
 * Meta's webhook signature (WhatsApp Cloud API): `X-Hub-Signature-256: sha256=<hex>`, an
 * HMAC-SHA256 of the raw body keyed with the app secret. Meta escapes non-ASCII characters in
 * the body it signs, so only the raw bytes verify; a re-serialised body would not.
 */
export function verifyMetaSignature(appSecret: string, signatureHeader: string | undefined, rawBody: Buffer): void {
  if (!signatureHeader) throw new VerificationError('missing X-Hub-Signature-256 header');
  const match = /^sha256=([0-9a-fA-F]{64})$/.exec(signatureHeader.trim());
  if (!match) throw new VerificationError('X-Hub-Signature-256 is not sha256=<64 hex digits>');
  const expected = createHmac('sha256', appSecret).update(rawBody).digest('hex');
  if (!safeEqual(match[1].toLowerCase(), expected))
    throw new VerificationError('X-Hub-Signature-256 does not match the body');
}
