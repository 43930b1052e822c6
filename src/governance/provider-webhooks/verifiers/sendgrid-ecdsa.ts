import { verify, type KeyObject } from 'node:crypto';
import { header, VerificationError } from './verification.js';

/**
 * SendGrid's signed Event Webhook: `X-Twilio-Email-Event-Webhook-Signature` is a base64 DER
 * ECDSA (P-256, SHA-256) signature over the `…-Timestamp` header's value followed by the raw
 * body. The timestamp must be within `toleranceSecs` of now (SendGrid signs each attempt).
 */
export function verifySendgridSignature(
  key: KeyObject,
  headers: Record<string, string | string[] | undefined>,
  rawBody: Buffer,
  opts: { toleranceSecs: number; now?: Date },
): void {
  const signature = header(headers, 'x-twilio-email-event-webhook-signature');
  const timestamp = header(headers, 'x-twilio-email-event-webhook-timestamp');
  if (!signature || !timestamp)
    throw new VerificationError('missing X-Twilio-Email-Event-Webhook-Signature or -Timestamp header');
  if (!/^\d{1,12}$/.test(timestamp))
    throw new VerificationError('X-Twilio-Email-Event-Webhook-Timestamp is not a Unix time in seconds');
  const now = Math.floor((opts.now ?? new Date()).getTime() / 1000);
  if (Math.abs(now - Number(timestamp)) > opts.toleranceSecs) {
    throw new VerificationError(
      `X-Twilio-Email-Event-Webhook-Timestamp is more than ${opts.toleranceSecs} s away from now`,
    );
  }
  let ok = false;
  try {
    ok = verify(
      'sha256',
      Buffer.concat([Buffer.from(timestamp), rawBody]),
      { key, dsaEncoding: 'der' },
      Buffer.from(signature, 'base64'),
    );
  } catch {
    ok = false; // a signature that is not DER at all
  }
  if (!ok) throw new VerificationError('X-Twilio-Email-Event-Webhook-Signature does not match the timestamp and body');
}
