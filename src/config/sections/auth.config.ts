import { defineSettings, setting } from '../define-section.js';
import { z } from 'zod';
import { envInt, envList, envString } from '../env-helpers.js';

const KEY_HINT = 'use at least 16 random characters, e.g. the output of `openssl rand -hex 24`';

export const authSection = defineSettings({
  /** Full control of the instance: admin routes, all MCP tools. */
  adminApiKey: setting('ADMIN_API_KEY', envString({ min: 16, hint: KEY_HINT })),
  /** Operators' read-only key: GET admin routes and read-only MCP tools. */
  readonlyApiKey: setting('READONLY_API_KEY', envString({ min: 16, hint: KEY_HINT })),
  /**
   * Signs subscriber tokens; the unsubscribe and tracking link keys (unless UNSUBSCRIBE_SECRET
   * is set) and the webhook secret key (unless WEBHOOK_SECRET_KEY is set) are derived from it.
   * Required by a production start (src/config/production-secrets.ts).
   */
  jwtSecret: setting('JWT_SECRET', envString({ min: 16, hint: KEY_HINT })),
  /**
   * Earlier JWT_SECRETs still accepted after a rotation (comma-separated): subscriber tokens and
   * links signed with them keep verifying, webhook secrets sealed with them keep opening.
   * Nothing new is signed with them. Drop one once what it signed has expired.
   */
  jwtPreviousSecrets: setting(
    'JWT_PREVIOUS_SECRETS',
    envList().pipe(
      z.array(z.string().min(16, { message: `each entry must be at least 16 characters (${KEY_HINT})` })).optional(),
    ),
    (secrets) => secrets ?? [],
  ),
  /**
   * How long a process may keep answering for a project key without asking PostgreSQL again.
   * A revoked key stops working at once in the process that revoked it and a few ms later in
   * the others (signal 'projects.changed'); this is the bound when that signal is lost.
   * 0: every request reads the key.
   */
  keyCacheMs: setting('AUTH_KEY_CACHE_MS', envInt({ default: 5_000, min: 0, max: 60_000 })),
  /**
   * How often a process that served rate-limited requests reconciles its counts with the other
   * replicas through PostgreSQL (one statement per tick, none while idle). Replicas may together
   * admit up to about (replicas − 1) × this × their request rate over a limit.
   */
  rateLimitSyncMs: setting('RATE_LIMIT_SYNC_MS', envInt({ default: 1_000, min: 50, max: 10_000 })),
});

export type AuthConfig = ReturnType<typeof authSection.build>;
