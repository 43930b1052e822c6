/**
 * Claim up to $1 due deliveries, oldest due first, skipping rows another worker holds, and mark
 * them processing in the same statement. Served by webhook_deliveries_claim_idx (run_at)
 * WHERE status IN ('pending','retry'); the UPDATE probes the primary key per picked id.
 */
export const CLAIM_DELIVERIES = `
  WITH picked AS MATERIALIZED (
    SELECT id FROM webhook_deliveries
     WHERE status IN ('pending','retry') AND run_at <= now()
     ORDER BY run_at
     LIMIT $1
     FOR UPDATE SKIP LOCKED
  )
  UPDATE webhook_deliveries d
     SET status = 'processing', attempts = d.attempts + 1, claimed_at = now()
   WHERE d.id = ANY(ARRAY(SELECT id FROM picked))
  RETURNING d.id, d.endpoint_id AS "endpointId", d.project_id AS "projectId", d.event_type AS "eventType",
            d.payload, d.attempts, d.max_attempts AS "maxAttempts", d.created_at AS "createdAt"`;

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

/** Endpoint health after a batch: last success / failure times. $1 succeeded id[] $2 failed id[] */
export const TOUCH_ENDPOINTS = `
  UPDATE webhook_endpoints
     SET last_success_at = CASE WHEN id = ANY($1::uuid[]) THEN now() ELSE last_success_at END,
         last_failure_at = CASE WHEN id = ANY($2::uuid[]) THEN now() ELSE last_failure_at END
   WHERE id = ANY($1::uuid[]) OR id = ANY($2::uuid[])`;

/**
 * Switches endpoints off (410, refused target, a day of failures) and cancels what was still
 * queued for them, in one statement. A re-enabled endpoint receives only new events.
 * $1 endpoint id[] $2 reason[]
 */
export const DISABLE_ENDPOINTS = `
  WITH off AS (
    UPDATE webhook_endpoints e
       SET enabled = false, disabled_at = now(), disabled_reason = r.reason, updated_at = now()
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
