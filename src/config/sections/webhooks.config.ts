import { defineSettings, setting } from '../define-section.js';
import { envInt, envPollIntervalMs, envRetentionDays, envString } from '../env-helpers.js';

/** 32 bytes, base64 (standard or url-safe): the AES-256-GCM key for endpoint secrets at rest. */
const secretKey = envString({
  check: (v) => Buffer.from(v, 'base64').length === 32,
  hint: 'must be 32 random bytes in base64, e.g. the output of `openssl rand -base64 32`',
});

/** Outbound webhooks (src/webhooks/): delivery queue, timeouts, secrets at rest. */
export const webhooksSection = defineSettings({
  /**
   * Encrypts endpoint signing secrets at rest. Unset: a key derived from JWT_SECRET (HKDF);
   * set it to rotate JWT_SECRET without losing the webhook secrets.
   */
  secretKey: setting('WEBHOOK_SECRET_KEY', secretKey, (key) => (key ? Buffer.from(key, 'base64') : undefined)),
  /** One delivery attempt; Standard Webhooks recommends 15–30 s. */
  timeoutMs: setting('WEBHOOK_TIMEOUT_MS', envInt({ default: 15_000, min: 100, max: 120_000 })),
  /** Deliveries claimed per round. */
  batchSize: setting('WEBHOOK_BATCH_SIZE', envInt({ default: 50, min: 1, max: 1_000 })),
  /** Requests in flight at once per worker process. */
  concurrency: setting('WEBHOOK_CONCURRENCY', envInt({ default: 16, min: 1, max: 256 })),
  /** Fallback poll when idle (an emit in this process wakes the sender at once). */
  pollIntervalMs: setting('WEBHOOK_POLL_INTERVAL_MS', envPollIntervalMs(1_000)),
  /** Finished deliveries (the delivery log) are deleted after this many days; 0 keeps them. */
  retentionDays: setting('WEBHOOK_DELIVERY_RETENTION_DAYS', envRetentionDays(14)),
});

export type WebhooksConfig = ReturnType<typeof webhooksSection.build>;
