import { defineSettings, setting } from '../define-section.js';
import { envInt, envPollIntervalMs, envRetentionDays } from '../env-helpers.js';

/** The workflow engine (src/workflows/): runs resumed by the worker role. */
export const workflowsSection = defineSettings({
  /** Runs claimed per round. */
  batchSize: setting('WORKFLOW_BATCH_SIZE', envInt({ default: 50, min: 1, max: 1_000 })),
  /** Runs executed at once per worker process. */
  concurrency: setting('WORKFLOW_CONCURRENCY', envInt({ default: 8, min: 1, max: 256 })),
  /** Fallback poll when idle: the longest a due delay or digest window waits past its time. */
  pollIntervalMs: setting('WORKFLOW_POLL_INTERVAL_MS', envPollIntervalMs(1_000)),
  /** Finished runs are deleted after this many days; 0 keeps them. */
  retentionDays: setting('WORKFLOW_RUN_RETENTION_DAYS', envRetentionDays(30)),
});

export type WorkflowsConfig = ReturnType<typeof workflowsSection.build>;
