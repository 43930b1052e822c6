import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Project keys look like `sk_<project>_<32 hex>`: the prefix lets secret scanners and people
 * recognise them; the 128 random bits make a slow KDF pointless, so the database stores the
 * SHA-256 of the key (about 1 µs per request instead of scrypt's 25 ms) and never the key.
 */
export function generateProjectKey(projectId: string): string {
  return `sk_${projectId}_${randomBytes(16).toString('hex')}`;
}

export function hashKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** What listings show of a key: its prefix and last four characters. */
export function keyHint(key: string): string {
  return `${key.slice(0, key.lastIndexOf('_') + 1)}…${key.slice(-4)}`;
}

/** Constant-time equality of two secrets of any length (hashing equalises the lengths). */
export function secretsEqual(presented: string, expected: string): boolean {
  return timingSafeEqual(
    createHash('sha256').update(presented).digest(),
    createHash('sha256').update(expected).digest(),
  );
}

/** The request headers presentedKey reads a key or token from (lower-case, as Node parses them). */
export const KEY_HEADERS: readonly string[] = ['x-api-key', 'authorization'];

/** The key a request carries: `X-Api-Key: …` or `Authorization: Bearer …`. */
export function presentedKey(headers: Record<string, string | string[] | undefined>): string | undefined {
  const header = headers['x-api-key'];
  const direct = Array.isArray(header) ? header[0] : header;
  if (direct?.trim()) return direct.trim();
  const authorization = headers.authorization;
  const auth = Array.isArray(authorization) ? authorization[0] : authorization;
  const match = auth?.match(/^Bearer\s+(.+)$/i);
  return match?.[1]?.trim() || undefined;
}
