import type { FindingRule } from '../digest.types.js';

/** Jobs held past the lease: their worker is gone and the reaper has not taken them back yet. */
export const stuckProcessing: FindingRule = ({ queue, lease_seconds }) =>
  queue.stuck_processing > 0
    ? [
        {
          severity: 'warning',
          code: 'jobs_stuck_processing',
          message: `${queue.stuck_processing} job(s) have been processing for longer than the lease (${lease_seconds} s): their worker stopped answering.`,
          action: 'No action needed if a worker replica runs: its reaper re-queues them within WORKER_REAPER_INTERVAL_SECS. If none runs, start one (NOTIFYD_ROLE=worker).',
          evidence: { stuck_processing: queue.stuck_processing, lease_seconds },
        },
      ]
    : [];
