import { createHmac } from 'node:crypto';

/** Shortest key notifyd MACs with: the floor of every secret variable (JWT_SECRET, UNSUBSCRIBE_SECRET…). */
export const MIN_MAC_KEY_LENGTH = 16;

/**
 * HMAC-SHA256 with a key that cannot be empty or short. notifyd's own signatures (unsubscribe
 * and tracking links, the keys derived for them) go through here, so that a missing secret
 * fails loudly instead of signing under a key anyone can compute (issue 18: links keyed with
 * HMAC('') were forgeable).
 */
export function keyedHmac(key: string | Buffer, data: string): Buffer {
  if (key.length < MIN_MAC_KEY_LENGTH)
    throw new Error(
      `refusing to sign with a key of ${key.length} characters: a MAC key must be at least ${MIN_MAC_KEY_LENGTH} characters (set JWT_SECRET)`,
    );
  return createHmac('sha256', key).update(data).digest();
}

/** A key for one purpose, derived from a root secret, as 64 hex digits (never the secret itself). */
export function deriveKey(root: string, purpose: string): string {
  return keyedHmac(root, purpose).toString('hex');
}
