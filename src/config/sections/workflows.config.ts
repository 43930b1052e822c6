import { defineSection } from '../define-section.js';
import { envInt } from '../env-helpers.js';

/** The workflow engine (src/workflows/): runs resumed by the worker role. */
export const workflowsSection = defineSection(
  {
    /** Runs claimed per round. */
    WORKFLOW_BATCH_SIZE: envInt({ default: 50, min: 1, max: 1_000 }),
    /** Runs executed at once per worker process. */
    WORKFLOW_CONCURRENCY: envInt({ default: 8, min: 1, max: 256 }),
    /** Fallback poll when idle: the longest a due delay or digest window waits past its time. */
    WORKFLOW_POLL_INTERVAL_MS: envInt({ default: 1_000, min: 10, max: 600_000 }),
    /** Finished runs are deleted after this many days; 0 keeps them. */
    WORKFLOW_RUN_RETENTION_DAYS: envInt({ default: 30, min: 0, max: 3_650 }),
  },
  (env) => ({
    batchSize: env.WORKFLOW_BATCH_SIZE,
    concurrency: env.WORKFLOW_CONCURRENCY,
    pollIntervalMs: env.WORKFLOW_POLL_INTERVAL_MS,
    retentionDays: env.WORKFLOW_RUN_RETENTION_DAYS,
  }),
);

export type WorkflowsConfig = ReturnType<typeof workflowsSection.build>;
