/**
 * Claim up to $1 due deliveries, oldest due first, skipping rows another worker holds, and mark
 * them processing in the same statement — except those of a paused endpoint (its circuit
 * breaker, webhook_endpoints.paused_until), which are deferred instead: run_at moves to the
 * pause's end and held_by_pause is set, status and attempts untouched (a pause burns no attempt
 * and fails nothing); a claimed row is no longer held.
 * Served by webhook_deliveries_claim_idx (run_at) WHERE status IN ('pending','retry'); the
 * endpoints of the batch are read by primary key, the UPDATEs probe the primary key per id.
 * Moving a deferred row's run_at takes it out of the due range, so a paused endpoint's backlog
 * costs one write per delivery per pause, never a rescan on every poll.
 *
 * When a pause has ended, one delivery per endpoint (its oldest in the batch) goes as the probe,
 * and paused_until moves $2 seconds ahead (the delivery lease) so no other claim, here or on
 * another replica, probes at the same time; the endpoint row is locked SKIP LOCKED, so the claim
 * never waits for an endpoint (the health and disable statements lock endpoints, then
 * deliveries). The probe's outcome clears the pause or lengthens it (TOUCH_ENDPOINTS).
 * Returns the claimed rows, and the deferred ones with deferred = true (and no payload).
 */
export const CLAIM_DELIVERIES = `
  WITH picked AS MATERIALIZED (
    SELECT id, endpoint_id, created_at FROM webhook_deliveries
     WHERE status IN ('pending','retry') AND run_at <= now()
     ORDER BY run_at
     LIMIT $1
     FOR UPDATE SKIP LOCKED
  ), gated AS MATERIALIZED (
    -- Endpoints of the batch under a pause, running or just ended (no probe succeeded yet).
    SELECT e.id, e.paused_until FROM webhook_endpoints e
     WHERE e.id = ANY(ARRAY(SELECT DISTINCT endpoint_id FROM picked)) AND e.paused_until IS NOT NULL
  ), probing AS MATERIALIZED (
    -- Ended pauses this claim takes the probe for (EvalPlanQual rechecks paused_until when
    -- another claim armed it first; a locked endpoint is skipped, its rows deferred).
    SELECT e.id FROM webhook_endpoints e
     WHERE e.id = ANY(ARRAY(SELECT id FROM gated WHERE paused_until <= now())) AND e.paused_until <= now()
     FOR UPDATE SKIP LOCKED
  ), armed AS (
    UPDATE webhook_endpoints e SET paused_until = now() + make_interval(secs => $2)
     WHERE e.id = ANY(ARRAY(SELECT id FROM probing))
  ), probes AS MATERIALIZED (
    SELECT DISTINCT ON (p.endpoint_id) p.id FROM picked p
     WHERE p.endpoint_id = ANY(ARRAY(SELECT id FROM probing))
     ORDER BY p.endpoint_id, p.created_at, p.id
  ), deferred AS (
    UPDATE webhook_deliveries d
       SET run_at = CASE WHEN g.paused_until > now() THEN g.paused_until ELSE now() + make_interval(secs => $2) END,
           held_by_pause = true
      FROM gated g
     WHERE d.id = ANY(ARRAY(SELECT id FROM picked)) AND d.endpoint_id = g.id
       AND d.id <> ALL(ARRAY(SELECT id FROM probes))
    RETURNING d.id, d.endpoint_id, d.project_id, d.event_type, NULL::jsonb AS payload, d.attempts,
              d.max_attempts, d.created_at, true AS deferred
  ), claimed AS (
    UPDATE webhook_deliveries d
       SET status = 'processing', attempts = d.attempts + 1, claimed_at = now(), held_by_pause = false
     WHERE d.id = ANY(ARRAY(SELECT id FROM picked WHERE endpoint_id <> ALL(ARRAY(SELECT id FROM gated))
                            UNION ALL SELECT id FROM probes))
    RETURNING d.id, d.endpoint_id, d.project_id, d.event_type, d.payload, d.attempts,
              d.max_attempts, d.created_at, false AS deferred
  )
  SELECT id, endpoint_id AS "endpointId", project_id AS "projectId", event_type AS "eventType",
         payload, attempts, max_attempts AS "maxAttempts", created_at AS "createdAt", deferred
    FROM claimed UNION ALL SELECT * FROM deferred`;

/**
 * Records the attempts of a claimed batch in one statement: each row's new status
 * (delivered, retry, failed, cancelled), when it is due again, the answer, and one entry
 * appended to its attempt log. Fenced by (id, attempts, processing): an outcome from a claim
 * the reaper already gave away writes nothing.
 * $1 id[]; $2 a JSON object keyed by id: {a: attempts, s: status, t: run_at, c: status code,
 * e: error, l: log entry}. No join to an unnest() of the values: the primary key is the only
 * access path whatever the statistics of `status` say (the jobs finalise learnt this).
 */
const V = `($2::jsonb -> d.id::text)`;
export const FINALISE_DELIVERIES = `
  UPDATE webhook_deliveries d
     SET status = ${V} ->> 's',
         run_at = COALESCE((${V} ->> 't')::timestamptz, d.run_at),
         claimed_at = NULL,
         finished_at = CASE WHEN ${V} ->> 's' IN ('delivered','failed','cancelled') THEN now() END,
         last_status_code = (${V} ->> 'c')::int,
         last_error = ${V} ->> 'e',
         attempt_log = d.attempt_log || jsonb_build_array(${V} -> 'l')
   WHERE d.id = ANY($1::uuid[]) AND d.attempts = (${V} ->> 'a')::int AND d.status = 'processing'`;

/**
 * Gives back claimed deliveries that were never attempted: their endpoint's breaker tripped
 * while the batch was out (webhook-pause.ts), so sending the rest of the batch would only add
 * requests to a receiver that is down. The claim's attempt is uncounted (as for a delivery the
 * claim defers), the status is what it was (pending before any attempt, else retry), and the
 * row is due at the pause's end. Fenced like the finalise.
 * $1 id[]; $2 a JSON object keyed by id: {a: attempts as claimed, t: run_at}.
 */
export const HOLD_DELIVERIES = `
  UPDATE webhook_deliveries d
     SET status = CASE WHEN d.attempts > 1 THEN 'retry' ELSE 'pending' END,
         attempts = d.attempts - 1,
         claimed_at = NULL,
         run_at = (${V} ->> 't')::timestamptz,
         held_by_pause = true
   WHERE d.id = ANY($1::uuid[]) AND d.attempts = (${V} ->> 'a')::int AND d.status = 'processing'`;

/**
 * Endpoint health after a batch, and its circuit breaker, in one UPDATE of the endpoints (one
 * pass of row locks, as before the breaker). $1 id[] of endpoints with a success:
 * last_success_at, the failure count and the pause cleared, and their deliveries held by the
 * pause (held_by_pause, run_at up to the pause's end; not a retry put off by the receiver's own
 * Retry-After) due again now — the backlog goes out at once, not at the
 * next poll of each row. $2 id[] of endpoints that only failed, $3 int[] how many attempts
 * failed for each: last_failure_at, the count raised (on the row as locked, so concurrent
 * batches add up), and from $4 failures in a row a pause of $5[count - $4 + 1] ms from now, the
 * last element being the cap. Primary key; the release reads webhook_deliveries_claim_idx over
 * the pause's window or webhook_deliveries_endpoint_idx.
 */
export const TOUCH_ENDPOINTS = `
  WITH touched AS (
    UPDATE webhook_endpoints e
       SET last_success_at = CASE WHEN f.id IS NULL THEN now() ELSE e.last_success_at END,
           last_failure_at = CASE WHEN f.id IS NULL THEN e.last_failure_at ELSE now() END,
           consecutive_failures = CASE WHEN f.id IS NULL THEN 0 ELSE e.consecutive_failures + f.n END,
           paused_until = CASE
             WHEN f.id IS NULL THEN NULL
             WHEN e.consecutive_failures + f.n >= $4 THEN now() + make_interval(
               secs => ($5::int[])[least(e.consecutive_failures + f.n - $4 + 1, cardinality($5::int[]))] / 1000.0)
             ELSE e.paused_until END
      FROM webhook_endpoints before
      LEFT JOIN unnest($2::uuid[], $3::int[]) AS f(id, n) ON f.id = before.id
     WHERE e.id = before.id AND (before.id = ANY($1::uuid[]) OR before.id = ANY($2::uuid[]))
    RETURNING e.id, f.id IS NULL AS recovered, before.paused_until AS "wasPausedUntil"
  )
  UPDATE webhook_deliveries d
     SET run_at = now(), held_by_pause = false
    FROM touched t
   WHERE t.recovered AND t."wasPausedUntil" IS NOT NULL AND d.endpoint_id = t.id
     AND d.status IN ('pending','retry') AND d.run_at > now() AND d.run_at <= t."wasPausedUntil"
     AND d.held_by_pause`;

/**
 * Switches endpoints off (410, refused target, a day of failures) and cancels what was still
 * queued for them, in one statement. A re-enabled endpoint receives only new events.
 * $1 endpoint id[] $2 reason[]
 */
export const DISABLE_ENDPOINTS = `
  WITH off AS (
    UPDATE webhook_endpoints e
       SET enabled = false, disabled_at = now(), disabled_reason = r.reason, updated_at = now(),
           paused_until = NULL
      FROM unnest($1::uuid[], $2::text[]) AS r(id, reason)
     WHERE e.id = r.id AND e.enabled
    RETURNING e.id, e.project_id AS "projectId", e.disabled_reason AS reason
  ), cancelled AS (
    UPDATE webhook_deliveries d
       SET status = 'cancelled', finished_at = now(), last_error = 'endpoint disabled: ' || off.reason
      FROM off
     WHERE d.endpoint_id = off.id AND d.status IN ('pending','retry')
    RETURNING d.id
  )
  SELECT off.*, (SELECT count(*) FROM cancelled)::int AS cancelled FROM off`;

/** Cancels the queued deliveries of endpoints disabled by hand; webhook_deliveries_endpoint_idx. */
export const CANCEL_QUEUED = `
  UPDATE webhook_deliveries
     SET status = 'cancelled', finished_at = now(), last_error = 'endpoint disabled: ' || $2
   WHERE endpoint_id = $1 AND status IN ('pending','retry')`;

/**
 * Deliveries whose worker died mid-request (lease $1 seconds) are due again now, their attempt
 * counted (the receiver may have got it: webhook-id lets it deduplicate). Bounded by $2;
 * webhook_deliveries_processing_idx.
 */
export const REAP_DELIVERIES = `
  WITH expired AS (
    SELECT id FROM webhook_deliveries
     WHERE status = 'processing' AND claimed_at < now() - make_interval(secs => $1)
     ORDER BY claimed_at LIMIT $2 FOR UPDATE SKIP LOCKED
  )
  UPDATE webhook_deliveries d
     SET status = CASE WHEN d.attempts >= d.max_attempts THEN 'failed' ELSE 'retry' END,
         finished_at = CASE WHEN d.attempts >= d.max_attempts THEN now() END,
         run_at = now(), claimed_at = NULL,
         last_error = concat_ws(' ', d.last_error, '[requeued: the worker stopped during the request]')
   WHERE d.id = ANY(ARRAY(SELECT id FROM expired))`;

/** Retention of the delivery log: finished deliveries created before $1, at most $2 per statement (BRIN). */
export const PURGE_DELIVERIES = `
  WITH doomed AS (
    SELECT id FROM webhook_deliveries
     WHERE created_at < $1 AND status IN ('delivered','failed','cancelled')
     LIMIT $2
  )
  DELETE FROM webhook_deliveries WHERE id = ANY(ARRAY(SELECT id FROM doomed))`;

export const DELIVERY_COLUMNS = `
  id, endpoint_id AS "endpointId", event_type AS "eventType", payload, status, attempts,
  max_attempts AS "maxAttempts", run_at AS "runAt", last_status_code AS "lastStatusCode",
  last_error AS "lastError", attempt_log AS "attemptLog", created_at AS "createdAt", finished_at AS "finishedAt",
  created_at::text AS "createdKey"`;

/**
 * One endpoint's delivery log, newest first, keyset-paginated on (created_at, id) after the
 * cursor ($3, $4), optionally by status ($5). webhook_deliveries_endpoint_idx.
 */
export const LIST_DELIVERIES = `
  SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries
   WHERE endpoint_id = $1
     AND ($3::timestamptz IS NULL OR (created_at, id) < ($3::timestamptz, $4::uuid))
     AND ($5::text IS NULL OR status = $5)
   ORDER BY created_at DESC, id DESC
   LIMIT $2`;

/** One delivery of one endpoint; primary key. */
export const FIND_DELIVERY = `
  SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE id = $1 AND endpoint_id = $2`;

/** Queue a failed or cancelled delivery again with fresh attempts (same webhook-id). */
export const REDELIVER = `
  UPDATE webhook_deliveries
     SET status = 'pending', attempts = 0, run_at = now(), finished_at = NULL, claimed_at = NULL
   WHERE id = $1 AND endpoint_id = $2 AND status IN ('failed','cancelled')
  RETURNING ${DELIVERY_COLUMNS}`;
