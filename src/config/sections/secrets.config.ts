import { z } from 'zod';
import { defineSection } from '../define-section.js';
import { envList, envString } from '../env-helpers.js';

/** 32 bytes, given as 64 hex digits or base64 (`openssl rand -base64 32`). */
export function parseSecretKey(text: string): Buffer | undefined {
  const t = text.trim();
  const bytes = /^[0-9a-f]{64}$/i.test(t)
    ? Buffer.from(t, 'hex')
    : /^[A-Za-z0-9+/]{43}=?$/.test(t)
      ? Buffer.from(t, 'base64')
      : undefined;
  return bytes?.length === 32 ? bytes : undefined;
}

const KEY_HINT = 'must be 32 random bytes as base64 or 64 hex digits (openssl rand -base64 32)';
const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;

/**
 * The key that encrypts per-project provider credentials at rest (AES-256-GCM). Rotation:
 * the new key becomes NOTIFYD_SECRET_KEY with a new NOTIFYD_SECRET_KEY_ID, the old one moves to
 * NOTIFYD_PREVIOUS_SECRET_KEYS as `id:key` until every row is re-encrypted (docs/CONNECTORS.md).
 */
export const secretsSection = defineSection(
  {
    NOTIFYD_SECRET_KEY: envString().pipe(
      z
        .string()
        .refine((v) => parseSecretKey(v) !== undefined, { message: KEY_HINT })
        .optional(),
    ),
    NOTIFYD_SECRET_KEY_ID: envString({ pattern: KEY_ID, hint: 'must be 1–32 letters, digits, _ or - (e.g. k2)' }),
    NOTIFYD_PREVIOUS_SECRET_KEYS: envList().pipe(
      z
        .array(
          z
            .string()
            .refine((v) => KEY_ID.test(v.split(':')[0]) && parseSecretKey(v.slice(v.indexOf(':') + 1)) !== undefined, {
              message: `each entry must be id:key where key ${KEY_HINT}`,
            }),
        )
        .optional(),
    ),
  },
  (env) => ({
    current: env.NOTIFYD_SECRET_KEY
      ? { id: env.NOTIFYD_SECRET_KEY_ID ?? 'k1', key: parseSecretKey(env.NOTIFYD_SECRET_KEY)! }
      : undefined,
    previous: (env.NOTIFYD_PREVIOUS_SECRET_KEYS ?? []).map((entry) => ({
      id: entry.split(':')[0],
      key: parseSecretKey(entry.slice(entry.indexOf(':') + 1))!,
    })),
  }),
);

export type SecretsConfig = ReturnType<typeof secretsSection.build>;
