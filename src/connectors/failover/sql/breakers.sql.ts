/**
 * Trip a primary's breaker: rest it until now + $6 seconds, never shortening a longer rest.
 * Counts a trip only when the breaker was closed; counts every message moved ($7). Primary key.
 * $1 lane_key, $2 channel, $3 provider, $4 project_id, $5 fallback provider, $6 cooldown secs,
 * $7 messages failed over, $8 reason.
 */
export const TRIP_BREAKER = `
  INSERT INTO provider_breakers AS b (lane_key, channel, provider, project_id, fallback_provider, resting_until, trips_total, failovers_total, last_tripped_at, last_reason)
  VALUES ($1, $2, $3, $4, $5, now() + make_interval(secs => $6::float8), 1, $7, now(), $8)
  ON CONFLICT (lane_key) DO UPDATE
     SET resting_until     = GREATEST(b.resting_until, EXCLUDED.resting_until),
         fallback_provider = EXCLUDED.fallback_provider,
         trips_total       = b.trips_total + CASE WHEN b.resting_until <= now() THEN 1 ELSE 0 END,
         failovers_total   = b.failovers_total + EXCLUDED.failovers_total,
         last_tripped_at   = CASE WHEN b.resting_until <= now() THEN now() ELSE b.last_tripped_at END,
         last_reason       = EXCLUDED.last_reason
  RETURNING resting_until`;

/** Count messages sent through the fallback while the primary rests (no trip). Primary key. $1 lane_key, $2 count. */
export const COUNT_FAILOVERS = `
  UPDATE provider_breakers SET failovers_total = failovers_total + $2 WHERE lane_key = $1`;

/** Primaries resting now, for every replica's routing cache. Sequential scan of a tiny table. */
export const RESTING_BREAKERS = `
  SELECT lane_key AS "laneKey", resting_until AS "restingUntil"
    FROM provider_breakers
   WHERE resting_until > now()`;

/** Every breaker with its state, for the digest, metrics and the admin API. */
export const BREAKER_STATES = `
  SELECT lane_key AS "laneKey", channel, provider, project_id AS "projectId", fallback_provider AS "fallbackProvider",
         resting_until AS "restingUntil", resting_until > now() AS resting,
         GREATEST(0, extract(epoch FROM resting_until - now()))::float8 AS "restingSeconds",
         trips_total::float8 AS "tripsTotal", failovers_total::float8 AS "failoversTotal",
         last_tripped_at AS "lastTrippedAt", last_reason AS "lastReason"
    FROM provider_breakers
   ORDER BY lane_key`;
