import type { FindingRule } from '../digest.types.js';

/**
 * Jobs are held by a worker but nothing finished in the window and nothing else waits: the
 * worker holding them probably died (notifyd's rule). The reaper hands them back after the lease.
 */
export const workerSilent: FindingRule = ({ queue, outcomes, window, lease_seconds }) => {
  const finished = outcomes.reduce((n, o) => n + o.sent + o.failed + o.bounced, 0);
  if (!(queue.processing > 0 && queue.pending === 0 && queue.retry === 0 && finished === 0)) return [];
  return [
    {
      severity: 'warning',
      code: 'worker_silent',
      message: `${queue.processing} job(s) are processing but no job finished in the last ${window}: the worker holding them may have died.`,
      action: `Check the worker replicas' logs and GET /v1/health; the reaper re-queues these jobs once their lease (WORKER_LEASE_SECS=${lease_seconds}) expires, without losing them.`,
      evidence: { processing: queue.processing, pending: 0, retry: 0, finished_in_window: 0 },
    },
  ];
};
