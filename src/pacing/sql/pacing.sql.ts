/*
 * Pacing SQL. Every statement touches one pacing_lanes row by its primary key (or the whole
 * table, which has a handful of rows). Times are the database's clock (now()), so replicas
 * with skewed clocks still share one bucket; callers get relative waits in milliseconds.
 */

/** The rate in force on a lane: the configured one, lowered by an unexpired adaptive rate. */
const EFFECTIVE_RATE = `CASE WHEN l.adaptive_rate IS NOT NULL AND l.adaptive_until > now() THEN LEAST($2::float8, l.adaptive_rate) ELSE $2::float8 END`;

/** Creates a lane row if missing (first use by any replica). $1 key $2 channel $3 provider $4 project. Primary key. */
export const ENSURE_LANE = `
  INSERT INTO pacing_lanes (lane_key, channel, provider, project_id)
  VALUES ($1, $2, $3, $4)
  ON CONFLICT (lane_key) DO NOTHING`;

/**
 * Take `cost` tokens from a lane's shared bucket (GCRA): lock the row, compute when a call of
 * this cost may go (send_at), and reserve it if the lane is not paused and send_at is within
 * the reservation horizon. One round trip per provider call. Primary key.
 *   $1 key  $2 configured rate/s  $3 burst secs  $4 cost  $5 horizon secs
 * Returns granted, wait_ms (until the reserved slot, or until worth asking again), the pause
 * in force and the effective rate.
 */
export const TAKE_TOKENS = `
  WITH lane AS (
    SELECT l.lane_key, l.tat, l.paused_until, l.pause_kind, l.pause_reason, ${EFFECTIVE_RATE} AS r
      FROM pacing_lanes l
     WHERE l.lane_key = $1
       FOR UPDATE
  ), slot AS (
    SELECT lane.*,
           GREATEST(now(), lane.tat - make_interval(secs => (GREATEST(1, lane.r * $3::float8) - $4::float8) / lane.r)) AS send_at,
           (lane.paused_until IS NOT NULL AND lane.paused_until > now()) AS paused
      FROM lane
  ), decision AS (
    SELECT slot.*, NOT slot.paused AND slot.send_at <= now() + make_interval(secs => $5::float8) AS granted
      FROM slot
  )
  UPDATE pacing_lanes l
     SET tat = CASE WHEN d.granted THEN GREATEST(d.tat, d.send_at) + make_interval(secs => $4::float8 / d.r) ELSE d.tat END,
         rate = $2, burst_secs = $3,
         calls_total = l.calls_total + CASE WHEN d.granted THEN 1 ELSE 0 END,
         tokens_total = l.tokens_total + CASE WHEN d.granted THEN $4::float8 ELSE 0 END,
         waited_ms_total = l.waited_ms_total + CASE WHEN d.granted THEN extract(epoch FROM d.send_at - now()) * 1000 ELSE 0 END,
         updated_at = now()
    FROM decision d
   WHERE l.lane_key = d.lane_key
  RETURNING d.granted, d.r AS rate,
            CASE WHEN d.granted THEN extract(epoch FROM d.send_at - now()) * 1000
                 WHEN d.paused THEN extract(epoch FROM d.paused_until - now()) * 1000
                 ELSE extract(epoch FROM d.send_at - now()) * 1000 - $5::float8 * 1000 END AS wait_ms,
            CASE WHEN d.paused THEN d.paused_until END AS paused_until,
            CASE WHEN d.paused THEN d.pause_kind END AS pause_kind,
            CASE WHEN d.paused THEN d.pause_reason END AS pause_reason`;

/**
 * Pause a lane for $5 seconds from now; a longer pause in force is kept as it is (never
 * shortened), a shorter one is extended. Creates the row if needed. Primary key.
 *   $1 key $2 channel $3 provider $4 project $5 secs $6 kind $7 reason
 */
export const PAUSE_LANE = `
  INSERT INTO pacing_lanes AS l (lane_key, channel, provider, project_id, paused_until, pause_kind, pause_reason, paused_at, pauses_total)
  VALUES ($1, $2, $3, $4, now() + make_interval(secs => $5::float8), $6, $7, now(), 1)
  ON CONFLICT (lane_key) DO UPDATE
     SET paused_until = GREATEST(l.paused_until, EXCLUDED.paused_until),
         pause_kind   = CASE WHEN l.paused_until IS NULL OR EXCLUDED.paused_until > l.paused_until THEN EXCLUDED.pause_kind ELSE l.pause_kind END,
         pause_reason = CASE WHEN l.paused_until IS NULL OR EXCLUDED.paused_until > l.paused_until THEN EXCLUDED.pause_reason ELSE l.pause_reason END,
         paused_at    = CASE WHEN l.paused_until IS NULL OR l.paused_until <= now() THEN now() ELSE l.paused_at END,
         -- slots reserved ahead are void (their callers see the pause): do not make the lane
         -- wait them out when it resumes
         tat          = LEAST(l.tat, now()),
         pauses_total = l.pauses_total + CASE WHEN l.paused_until IS NULL OR l.paused_until <= now() THEN 1 ELSE 0 END,
         updated_at   = now()
  RETURNING paused_until, pause_kind, pause_reason`;

/** Lift a lane's pause (operator). Returns the row if the lane exists. Primary key. $1 key */
export const RESUME_LANE = `
  UPDATE pacing_lanes
     SET paused_until = NULL, pause_kind = NULL, pause_reason = NULL, paused_at = NULL, updated_at = now()
   WHERE lane_key = $1
  RETURNING lane_key`;

/**
 * Record what the provider's quota headers said and the rate that follows from them (null
 * clears it). Primary key. $1 key $2 adaptive rate $3 adaptive secs $4 remaining $5 limit $6 reset secs
 */
export const SET_ADAPTIVE = `
  UPDATE pacing_lanes
     SET adaptive_rate = $2::float8,
         adaptive_until = CASE WHEN $2::float8 IS NULL THEN NULL ELSE now() + make_interval(secs => $3::float8) END,
         quota_remaining = $4::float8, quota_limit = $5::float8,
         quota_reset_at = CASE WHEN $6::float8 IS NULL THEN NULL ELSE now() + make_interval(secs => $6::float8) END,
         updated_at = now()
   WHERE lane_key = $1`;

/** Pauses in force on every lane, for the claim and the dispatcher (a few rows; seq scan of a tiny table). */
export const ACTIVE_PAUSES = `
  SELECT lane_key AS "laneKey", channel, provider, project_id AS "projectId",
         extract(epoch FROM paused_until - now()) * 1000 AS "remainingMs", pause_kind AS kind, pause_reason AS reason
    FROM pacing_lanes
   WHERE paused_until > now()`;

/** Every lane's state for operators (admin endpoint, digest, metrics, MCP). Tiny table. */
export const LANE_STATES = `
  SELECT lane_key AS "laneKey", channel, provider, project_id AS "projectId", rate, burst_secs AS "burstSecs",
         CASE WHEN adaptive_until > now() THEN adaptive_rate END AS "adaptiveRate",
         CASE WHEN adaptive_until > now() THEN adaptive_until END AS "adaptiveUntil",
         -- tokens available now: burst minus what the reservations ahead of now still hold
         CASE WHEN rate > 0 THEN GREATEST(0, GREATEST(1, rate * burst_secs) - GREATEST(0, extract(epoch FROM tat - now())) * rate) END AS tokens,
         CASE WHEN paused_until > now() THEN paused_until END AS "pausedUntil",
         CASE WHEN paused_until > now() THEN pause_kind END AS "pauseKind",
         CASE WHEN paused_until > now() THEN pause_reason END AS "pauseReason",
         CASE WHEN paused_until > now() THEN paused_at END AS "pausedAt",
         quota_remaining AS "quotaRemaining", quota_limit AS "quotaLimit", quota_reset_at AS "quotaResetAt",
         pauses_total AS "pausesTotal", calls_total AS "callsTotal", tokens_total AS "tokensTotal",
         waited_ms_total AS "waitedMsTotal", updated_at AS "updatedAt"
    FROM pacing_lanes
   ORDER BY lane_key`;
