import type { Band, FindingRule } from '../digest.types.js';
import { queueHarm } from './harm.js';

/** How late a waiting job may be per band before someone should look: urgent and normal 5 min, bulk 1 h. */
export const OLDEST_WAITING_LIMIT_SECONDS: Record<Band, number> = { urgent: 300, normal: 300, bulk: 3_600 };

/**
 * A waiting job is late: measured from the time its sender asked for (scheduled_at), so a
 * fair-share slot, a lane pause or retries count as the delay they are. Causes: no worker, a
 * paused lane, a provider failing, or more work than the rate allows.
 */
export const oldestWaiting: FindingRule = (facts) => {
  const { queue, lanes, retrying } = facts;
  const paused = lanes.filter((l) => l.paused_until).map((l) => l.lane);
  const bands = (Object.keys(OLDEST_WAITING_LIMIT_SECONDS) as Band[]).filter(
    (band) => (queue.oldest_waiting_seconds[band] ?? 0) > OLDEST_WAITING_LIMIT_SECONDS[band],
  );
  if (!bands.length) return [];
  const harm = queueHarm(facts);
  return bands.map((band) => ({
    severity: band === 'urgent' ? ('critical' as const) : ('warning' as const),
    code: 'queue_oldest_waiting',
    message:
      `The oldest waiting ${band} job is ${queue.oldest_waiting_seconds[band]} s past the time it was asked for (limit ${OLDEST_WAITING_LIMIT_SECONDS[band]} s); ` +
      `${queue.late} job(s) are late, ${queue.due} due now, ${queue.retry} retrying.`,
    action:
      (paused.length ? `Lanes paused: ${paused.join(', ')} (GET /v1/admin/lanes). ` : '') +
      (retrying.length ? 'Jobs are retrying: see provider_failing and retrying. ' : '') +
      'Check that a worker runs (workers.alive in this digest, GET /v1/health); add worker replicas or raise the lane rate if the backlog only grows.',
    evidence: {
      band,
      oldest_waiting_seconds: queue.oldest_waiting_seconds[band],
      limit_seconds: OLDEST_WAITING_LIMIT_SECONDS[band],
      late: queue.late,
      due: queue.due,
      pending: queue.pending,
      retry: queue.retry,
      paused_lanes: paused,
    },
    harm,
  }));
};
