import { defineSettings, setting } from '../define-section.js';
import { envInt, envPollIntervalMs, envRetentionDays, secondsToMs } from '../env-helpers.js';

export const workerSection = defineSettings({
  /** Jobs claimed per poll (one SELECT … FOR UPDATE SKIP LOCKED). */
  batchSize: setting('WORKER_BATCH_SIZE', envInt({ default: 100, min: 1, max: 10_000 })),
  /** Fallback poll when idle; signals wake the worker earlier. */
  pollIntervalMs: setting('WORKER_POLL_INTERVAL_MS', envPollIntervalMs(500)),
  /** Attempts for transient failures before a job is failed. */
  maxAttempts: setting('WORKER_MAX_ATTEMPTS', envInt({ default: 5, min: 1, max: 50 })),
  /**
   * Claimed batches a worker holds at once: one being claimed while others are screened,
   * sent and finalised, so that the database and the worker's own CPU overlap.
   */
  batchesInFlight: setting('WORKER_BATCHES_IN_FLIGHT', envInt({ default: 3, min: 1, max: 16 })),
  /** Provider calls in flight at once per claimed batch (times WORKER_BATCHES_IN_FLIGHT per worker). */
  concurrency: setting('WORKER_CONCURRENCY', envInt({ default: 8, min: 1, max: 1_000 })),
  /** Upper bound on one provider call; a slower call is treated as transient. */
  sendTimeoutMs: setting('WORKER_SEND_TIMEOUT_MS', envInt({ default: 30_000, min: 100, max: 600_000 })),
  /** A job processing for longer than this is presumed lost and re-queued by the reaper. */
  leaseMs: setting('WORKER_LEASE_SECS', envInt({ default: 600, min: 5, max: 86_400 }), secondsToMs),
  reaperIntervalMs: setting('WORKER_REAPER_INTERVAL_SECS', envInt({ default: 60, min: 1, max: 3_600 }), secondsToMs),
  /** Finished jobs (sent, cancelled, bounced) are deleted after this many days; 0 keeps them. */
  retentionDays: setting('JOB_RETENTION_DAYS', envRetentionDays(7)),
  /** Failed jobs are kept longer: they are the evidence an operator needs. 0 keeps them. */
  failedRetentionDays: setting('FAILED_JOB_RETENTION_DAYS', envRetentionDays(30)),
  retentionIntervalMs: setting(
    'RETENTION_INTERVAL_SECS',
    envInt({ default: 3_600, min: 10, max: 86_400 }),
    secondsToMs,
  ),
  /**
   * Single sends' inserts in flight at once per API process; sends that arrive while they all
   * run share the next statement and its commit (group commit). 0: every send its own insert.
   */
  enqueueInsertsInFlight: setting('ENQUEUE_INSERTS_IN_FLIGHT', envInt({ default: 2, min: 0, max: 64 })),
});

export type WorkerConfig = ReturnType<typeof workerSection.build>;
