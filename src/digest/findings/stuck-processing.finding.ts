import type { FindingRule } from '../digest.types.js';

/** Jobs held past the lease: their worker is gone and the reaper has not taken them back yet. */
export const stuckProcessing: FindingRule = ({ queue, lease_seconds, workers }) =>
  queue.stuck_processing > 0
    ? [
        {
          severity: 'warning',
          code: 'jobs_stuck_processing',
          message: `${queue.stuck_processing} job(s) have been processing for longer than the lease (${lease_seconds} s): their worker stopped answering.`,
          action:
            workers.alive > 0
              ? `No action needed: a live worker's reaper re-queues them within WORKER_REAPER_INTERVAL_SECS (${workers.alive} worker(s) alive).`
              : 'No worker is alive to re-queue them: start one (NOTIFYD_ROLE=worker or all); its reaper takes them back.',
          evidence: { stuck_processing: queue.stuck_processing, lease_seconds, workers_alive: workers.alive },
        },
      ]
    : [];
