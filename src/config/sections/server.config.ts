import { defineSection } from '../define-section.js';
import { envEnum, envInt, envList, envString, envUrl } from '../env-helpers.js';
import { envTrustProxy } from '../trust-proxy.js';

export const NOTIFYD_ROLES = ['all', 'api', 'worker'] as const;
export type NotifydRole = (typeof NOTIFYD_ROLES)[number];
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export const serverSection = defineSection(
  {
    /** all = API + worker in one process; api or worker split a deployment. */
    NOTIFYD_ROLE: envEnum(NOTIFYD_ROLES, 'all'),
    PORT: envInt({ default: 3400, min: 0, max: 65535 }),
    HOST: envString(),
    /** Largest accepted request body. notifyd allows 5 MiB so PDFs fit as attachments. */
    BODY_LIMIT_BYTES: envInt({ default: 5 * 1024 * 1024, min: 1024, max: 64 * 1024 * 1024 }),
    LOG_LEVEL: envEnum(LOG_LEVELS, 'info'),
    /**
     * Log lines are written to stdout in blocks (up to 4 KiB) at most this many ms apart, not one
     * write per line: at a few hundred requests a second the per-line write was a tenth of an API
     * process's CPU (issue 19). 0 writes every line at once. A clean exit or a crash that runs
     * Node's exit handlers writes what is buffered; a SIGKILL loses at most this window.
     */
    LOG_FLUSH_MS: envInt({ default: 100, min: 0, max: 5_000 }),
    /** Public base URL of this instance (unsubscribe links, tracking, provider callbacks). */
    PUBLIC_URL: envUrl({ protocols: ['http', 'https'] }),
    /** Comma list of browser origins CORS allows (set but empty: any). /mcp checks MCP_ALLOWED_ORIGINS instead. */
    CORS_ORIGINS: envList(),
    /** Seconds SIGTERM waits for in-flight sends before releasing what is left. */
    SHUTDOWN_GRACE_SECS: envInt({ default: 10, min: 0, max: 600 }),
    /**
     * Proxies whose X-Forwarded-For is believed (the client IP of audit lines): unset = none,
     * a hop count (1 behind one load balancer) or their addresses/CIDR ranges, comma-separated.
     */
    TRUST_PROXY: envTrustProxy(),
  },
  (env) => ({
    role: env.NOTIFYD_ROLE as NotifydRole,
    port: env.PORT,
    host: env.HOST ?? '0.0.0.0',
    bodyLimitBytes: env.BODY_LIMIT_BYTES,
    logLevel: env.LOG_LEVEL as LogLevel,
    logFlushMs: env.LOG_FLUSH_MS,
    publicUrl: env.PUBLIC_URL?.replace(/\/+$/, ''),
    // notifyd's default when unset: the two usual local front-end dev servers.
    corsOrigins: env.CORS_ORIGINS ?? ['http://localhost:3000', 'http://localhost:5173'],
    shutdownGraceMs: env.SHUTDOWN_GRACE_SECS * 1000,
    trustProxy: env.TRUST_PROXY,
  }),
);

export type ServerConfig = ReturnType<typeof serverSection.build>;
