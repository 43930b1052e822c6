import { createHmac } from 'node:crypto';
import { signingKey } from '../webhook-secrets.js';

/**
 * Standard Webhooks 1.0 signature: `v1,` + base64 HMAC-SHA256 over `id.timestamp.body`, keyed
 * with the secret's decoded bytes. Several secrets (a rotation's overlap window) give several
 * space-separated signatures; a receiver accepts the message if any one verifies. Written
 * with node:crypto (native HMAC) and checked against the `standardwebhooks` library in tests.
 */
export function signatureHeader(
  secrets: readonly string[],
  id: string,
  timestampSeconds: number,
  body: string,
): string {
  return secrets
    .map(
      (secret) =>
        `v1,${createHmac('sha256', signingKey(secret)).update(`${id}.${timestampSeconds}.${body}`).digest('base64')}`,
    )
    .join(' ');
}

/** The headers of one attempt: the id is stable across retries, the timestamp is per attempt. */
export function webhookHeaders(
  secrets: readonly string[],
  id: string,
  body: string,
  now: Date = new Date(),
): Record<string, string> {
  const timestamp = Math.floor(now.getTime() / 1000);
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signatureHeader(secrets, id, timestamp, body),
  };
}

/**
 * notifyd 0.x's signature, for endpoints imported from it: `X-Notifyd-Signature` = hex
 * HMAC-SHA256 of the raw body keyed by the secret's UTF-8 bytes (0.x secrets are not
 * `whsec_` base64). It has no timestamp, so it does not stop replays: the Standard Webhooks
 * headers, sent beside it, do; receivers should move to them (docs/MIGRATING.md).
 */
export function legacySignatureHeader(secret: string, body: string): Record<string, string> {
  return { 'x-notifyd-signature': createHmac('sha256', Buffer.from(secret, 'utf8')).update(body).digest('hex') };
}
