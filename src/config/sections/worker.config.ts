import { defineSection } from '../define-section.js';
import { envInt } from '../env-helpers.js';

export const workerSection = defineSection(
  {
    /** Jobs claimed per poll (one SELECT … FOR UPDATE SKIP LOCKED). */
    WORKER_BATCH_SIZE: envInt({ default: 100, min: 1, max: 10_000 }),
    /** Fallback poll when idle; signals wake the worker earlier. */
    WORKER_POLL_INTERVAL_MS: envInt({ default: 500, min: 10, max: 600_000 }),
    /** Attempts for transient failures before a job is failed. */
    WORKER_MAX_ATTEMPTS: envInt({ default: 5, min: 1, max: 50 }),
    /**
     * Claimed batches a worker holds at once: one being claimed while others are screened,
     * sent and finalised, so that the database and the worker's own CPU overlap.
     */
    WORKER_BATCHES_IN_FLIGHT: envInt({ default: 3, min: 1, max: 16 }),
    /** Provider calls in flight at once per claimed batch (times WORKER_BATCHES_IN_FLIGHT per worker). */
    WORKER_CONCURRENCY: envInt({ default: 8, min: 1, max: 1_000 }),
    /** Upper bound on one provider call; a slower call is treated as transient. */
    WORKER_SEND_TIMEOUT_MS: envInt({ default: 30_000, min: 100, max: 600_000 }),
    /** A job processing for longer than this is presumed lost and re-queued by the reaper. */
    WORKER_LEASE_SECS: envInt({ default: 600, min: 5, max: 86_400 }),
    WORKER_REAPER_INTERVAL_SECS: envInt({ default: 60, min: 1, max: 3_600 }),
    /** Finished jobs (sent, cancelled, bounced) are deleted after this many days; 0 keeps them. */
    JOB_RETENTION_DAYS: envInt({ default: 7, min: 0, max: 3_650 }),
    /** Failed jobs are kept longer: they are the evidence an operator needs. 0 keeps them. */
    FAILED_JOB_RETENTION_DAYS: envInt({ default: 30, min: 0, max: 3_650 }),
    RETENTION_INTERVAL_SECS: envInt({ default: 3_600, min: 10, max: 86_400 }),
    /**
     * Single sends' inserts in flight at once per API process; sends that arrive while they all
     * run share the next statement and its commit (group commit). 0: every send its own insert.
     */
    ENQUEUE_INSERTS_IN_FLIGHT: envInt({ default: 2, min: 0, max: 64 }),
  },
  (env) => ({
    batchSize: env.WORKER_BATCH_SIZE,
    pollIntervalMs: env.WORKER_POLL_INTERVAL_MS,
    maxAttempts: env.WORKER_MAX_ATTEMPTS,
    batchesInFlight: env.WORKER_BATCHES_IN_FLIGHT,
    concurrency: env.WORKER_CONCURRENCY,
    sendTimeoutMs: env.WORKER_SEND_TIMEOUT_MS,
    leaseMs: env.WORKER_LEASE_SECS * 1000,
    reaperIntervalMs: env.WORKER_REAPER_INTERVAL_SECS * 1000,
    retentionDays: env.JOB_RETENTION_DAYS,
    failedRetentionDays: env.FAILED_JOB_RETENTION_DAYS,
    retentionIntervalMs: env.RETENTION_INTERVAL_SECS * 1000,
    enqueueInsertsInFlight: env.ENQUEUE_INSERTS_IN_FLIGHT,
  }),
);

export type WorkerConfig = ReturnType<typeof workerSection.build>;
