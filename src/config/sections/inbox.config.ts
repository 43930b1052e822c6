import { defineSettings, setting } from '../define-section.js';
import { envInt, secondsToMs } from '../env-helpers.js';

/** The in-app inbox API and its realtime stream (src/inbox/). */
export const inboxSection = defineSettings({
  /** Comment line sent on every open stream this often, so proxies keep it open. */
  heartbeatMs: setting('INBOX_HEARTBEAT_SECS', envInt({ default: 20, min: 1, max: 300 }), secondsToMs),
  /** Lifetime of a single-use stream ticket. */
  ticketTtlSecs: setting('INBOX_TICKET_TTL_SECS', envInt({ default: 60, min: 5, max: 600 })),
  /** Events kept for Last-Event-ID replay; an older reconnect gets a `resync` event instead. */
  eventRetentionHours: setting('INBOX_EVENT_RETENTION_HOURS', envInt({ default: 24, min: 1, max: 720 })),
  /** Streams re-read their subscribers this often only while signals are off or the listener is down. */
  fallbackPollMs: setting('INBOX_FALLBACK_POLL_MS', envInt({ default: 2_000, min: 100, max: 60_000 })),
  /** Open streams one subscriber may hold on one API process (tabs, devices); the next one is a 429. */
  maxStreamsPerSubscriber: setting('INBOX_MAX_STREAMS_PER_SUBSCRIBER', envInt({ default: 5, min: 1, max: 1_000 })),
  /** Open streams all subscribers of one project may hold on one API process; the next one is a 429. */
  maxStreamsPerProject: setting('INBOX_MAX_STREAMS_PER_PROJECT', envInt({ default: 1_000, min: 1, max: 1_000_000 })),
  /** Stream tickets one subscriber may get per minute from one API process; they also spend the project's rate_limit_per_min. */
  streamTicketsPerMin: setting('INBOX_STREAM_TICKETS_PER_MIN', envInt({ default: 30, min: 1, max: 10_000 })),
  /**
   * Bytes a stream may have written but not yet taken by its socket. Past it the stream gets no
   * more events until its reader catches up (then they follow from the database); one still past
   * it a heartbeat later is closed, and its client reconnects with Last-Event-ID.
   */
  streamMaxBufferBytes: setting(
    'INBOX_STREAM_MAX_BUFFER_BYTES',
    envInt({ default: 1_048_576, min: 16_384, max: 67_108_864 }),
  ),
});

export type InboxConfig = ReturnType<typeof inboxSection.build>;
