import { defineSection } from '../define-section.js';
import { envBool, envInt, envUrl } from '../env-helpers.js';

export const signalsSection = defineSection(
  {
    /**
     * LISTEN/NOTIFY wake-ups (DESIGN.md §5). false: no NOTIFY is ever sent and nothing listens;
     * workers and waiters fall back to polling. For comparisons and for poolers that cannot LISTEN.
     */
    SIGNALS_ENABLED: envBool(true),
    /**
     * Least time between two flushes of the after-commit signal buffer. Each flush is one
     * notifying transaction; the gap is what keeps them from queuing on the cluster-wide
     * NOTIFY lock under load (seed 003: 2 ms kept 88 % of the commit rate).
     */
    SIGNAL_FLUSH_MIN_GAP_MS: envInt({ default: 2, min: 0, max: 1_000 }),
    /** How often the listening connection proves it is alive; a silent (half-open) one is replaced. */
    SIGNAL_HEARTBEAT_SECS: envInt({ default: 15, min: 1, max: 600 }),
    /**
     * A direct, session-level connection for LISTEN when DATABASE_URL goes through a
     * transaction-mode pooler (which cannot hold a LISTEN). Default: DATABASE_URL.
     */
    SIGNALS_DATABASE_URL: envUrl({
      protocols: ['postgres', 'postgresql'],
      hint: 'must be a PostgreSQL URL such as postgres://user:password@db-host:5432/notifyd (a direct connection, not a transaction pooler)',
    }),
  },
  (env) => ({
    enabled: env.SIGNALS_ENABLED,
    flushMinGapMs: env.SIGNAL_FLUSH_MIN_GAP_MS,
    heartbeatMs: env.SIGNAL_HEARTBEAT_SECS * 1000,
    listenUrl: env.SIGNALS_DATABASE_URL,
  }),
);

export type SignalsConfig = ReturnType<typeof signalsSection.build>;
