import type { Band, FindingRule } from '../digest.types.js';

/** How long a due job may wait per band before someone should look: urgent and normal 5 min, bulk 1 h. */
export const OLDEST_WAITING_LIMIT_SECONDS: Record<Band, number> = { urgent: 300, normal: 300, bulk: 3_600 };

/** A due job has waited too long: no worker, a paused lane, or more work than the rate allows. */
export const oldestWaiting: FindingRule = ({ queue, lanes }) => {
  const paused = lanes.filter((l) => l.paused_until).map((l) => l.lane);
  return (Object.keys(OLDEST_WAITING_LIMIT_SECONDS) as Band[])
    .filter((band) => (queue.oldest_waiting_seconds[band] ?? 0) > OLDEST_WAITING_LIMIT_SECONDS[band])
    .map((band) => ({
      severity: band === 'urgent' ? ('critical' as const) : ('warning' as const),
      code: 'queue_oldest_waiting',
      message: `The oldest due ${band} job has waited ${queue.oldest_waiting_seconds[band]} s (limit ${OLDEST_WAITING_LIMIT_SECONDS[band]} s); ${queue.pending} pending, ${queue.retry} retrying.`,
      action:
        (paused.length ? `Lanes paused: ${paused.join(', ')} (GET /v1/admin/lanes). ` : '') +
        'Check that a worker runs (NOTIFYD_ROLE=all or worker; GET /v1/health on each replica) and look at retries_waiting; add worker replicas or raise the lane rate if the backlog only grows.',
      evidence: { band, oldest_waiting_seconds: queue.oldest_waiting_seconds[band], limit_seconds: OLDEST_WAITING_LIMIT_SECONDS[band], pending: queue.pending, retry: queue.retry, paused_lanes: paused },
    }));
};
