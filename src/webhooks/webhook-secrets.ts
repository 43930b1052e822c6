import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/** `whsec_` + base64 of 32 random bytes: the Standard Webhooks secret format. */
const SECRET_BYTES = 32;
const PREFIX = 'whsec_';
/** Blob layout: version (1) | iv (12) | ciphertext | tag (16). */
const VERSION = 1;

export function generateSecret(): string {
  return `${PREFIX}${randomBytes(SECRET_BYTES).toString('base64')}`;
}

/** A caller-supplied secret must be `whsec_` + base64 of 24–64 bytes (Standard Webhooks). */
export function isValidSecret(secret: string): boolean {
  if (!secret.startsWith(PREFIX)) return false;
  const body = secret.slice(PREFIX.length);
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(body)) return false;
  const bytes = Buffer.from(body, 'base64').length;
  return bytes >= 24 && bytes <= 64;
}

/** The HMAC key a secret stands for: its base64 part, decoded. */
export function signingKey(secret: string): Buffer {
  return Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');
}

/** What listings show of a secret: its prefix and last four characters. */
export function secretHint(secret: string): string {
  return `${PREFIX}…${secret.slice(-4)}`;
}

/**
 * The key that encrypts secrets at rest: WEBHOOK_SECRET_KEY, else one derived from JWT_SECRET
 * with HKDF-SHA256 (a separate key per purpose, so the JWT secret never encrypts anything itself).
 */
export function secretsKey(explicit: Buffer | undefined, jwtSecret: string | undefined): Buffer | undefined {
  if (explicit) return explicit;
  if (!jwtSecret) return undefined;
  return Buffer.from(hkdfSync('sha256', jwtSecret, 'notifyd', 'webhook-secrets/v1', 32));
}

/**
 * Every key a stored secret may have been sealed with, the current one first: after a JWT_SECRET
 * rotation (old secret in JWT_PREVIOUS_SECRETS) or once WEBHOOK_SECRET_KEY is set, secrets sealed
 * under the earlier key still open. New secrets are sealed with the first.
 */
export function secretsKeys(
  explicit: Buffer | undefined,
  jwtSecret: string | undefined,
  previousJwtSecrets: readonly string[],
): Buffer[] {
  const current = secretsKey(explicit, jwtSecret);
  const derived = [explicit ? jwtSecret : undefined, ...previousJwtSecrets]
    .filter((s): s is string => Boolean(s))
    .map((s) => secretsKey(undefined, s)!);
  return current ? [current, ...derived] : derived;
}

/** Opens a sealed secret with the first of `keys` that authenticates it (AES-GCM refuses the others). */
export function decryptWithAny(keys: readonly Buffer[], endpointId: string, blob: Buffer): string {
  let failure: unknown = new Error(
    'no key to open webhook secrets: set WEBHOOK_SECRET_KEY or JWT_SECRET as when the endpoint was created',
  );
  for (const key of keys) {
    try {
      return decryptSecret(key, endpointId, blob);
    } catch (err) {
      failure = err;
    }
  }
  throw failure;
}

/**
 * AES-256-GCM with the endpoint id as associated data: a secret copied onto another endpoint's
 * row does not decrypt there.
 */
export function encryptSecret(key: Buffer, endpointId: string, secret: string): Buffer {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(endpointId, 'utf8'));
  const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return Buffer.concat([Buffer.from([VERSION]), iv, body, cipher.getAuthTag()]);
}

export function decryptSecret(key: Buffer, endpointId: string, blob: Buffer): string {
  if (blob[0] !== VERSION) throw new Error(`unknown webhook secret format ${blob[0]}`);
  const iv = blob.subarray(1, 13);
  const tag = blob.subarray(blob.length - 16);
  const decipher = createDecipheriv('aes-256-gcm', key, iv);
  decipher.setAAD(Buffer.from(endpointId, 'utf8'));
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(blob.subarray(13, blob.length - 16)), decipher.final()]).toString('utf8');
}
