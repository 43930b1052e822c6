import { defineSection } from '../define-section.js';
import { envInt } from '../env-helpers.js';

/** The in-app inbox API and its realtime stream (src/inbox/). */
export const inboxSection = defineSection(
  {
    /** Comment line sent on every open stream this often, so proxies keep it open. */
    INBOX_HEARTBEAT_SECS: envInt({ default: 20, min: 1, max: 300 }),
    /** Lifetime of a single-use stream ticket. */
    INBOX_TICKET_TTL_SECS: envInt({ default: 60, min: 5, max: 600 }),
    /** Events kept for Last-Event-ID replay; an older reconnect gets a `resync` event instead. */
    INBOX_EVENT_RETENTION_HOURS: envInt({ default: 24, min: 1, max: 720 }),
    /** Streams re-read their subscribers this often only while signals are off or the listener is down. */
    INBOX_FALLBACK_POLL_MS: envInt({ default: 2_000, min: 100, max: 60_000 }),
  },
  (env) => ({
    heartbeatMs: env.INBOX_HEARTBEAT_SECS * 1000,
    ticketTtlSecs: env.INBOX_TICKET_TTL_SECS,
    eventRetentionHours: env.INBOX_EVENT_RETENTION_HOURS,
    fallbackPollMs: env.INBOX_FALLBACK_POLL_MS,
  }),
);

export type InboxConfig = ReturnType<typeof inboxSection.build>;
