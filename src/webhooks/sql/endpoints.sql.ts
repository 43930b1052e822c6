export const ENDPOINT_COLUMNS = `
  id, project_id AS "projectId", url, description, events, enabled, secret_hint AS "secretHint", signature_format AS "signatureFormat",
  previous_secret_expires_at AS "previousSecretExpiresAt", disabled_at AS "disabledAt",
  disabled_reason AS "disabledReason", last_success_at AS "lastSuccessAt",
  last_failure_at AS "lastFailureAt", consecutive_failures AS "consecutiveFailures",
  paused_until AS "pausedUntil", created_at AS "createdAt", updated_at AS "updatedAt"`;

/**
 * A new endpoint; the id is chosen by the caller (it is the secret's associated data). No row
 * when the project has $10 endpoints already (webhook_endpoints_project_idx). Two creates in the
 * same instant may both see $10 - 1: the overshoot is bounded by the concurrent requests.
 */
export const INSERT_ENDPOINT = `
  INSERT INTO webhook_endpoints (id, project_id, url, description, events, enabled, secret_enc, secret_hint, signature_format)
  SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9
   WHERE (SELECT count(*) FROM webhook_endpoints WHERE project_id = $2) < $10
  RETURNING ${ENDPOINT_COLUMNS}`;

/** One endpoint of one project ($2 null = any project, for operators); primary key. */
export const FIND_ENDPOINT = `
  SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE id = $1 AND ($2::text IS NULL OR project_id = $2)`;

/** Endpoints of one project, or of all ($1 null), newest first; webhook_endpoints_project_idx. */
export const LIST_ENDPOINTS = `
  SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints
   WHERE ($1::text IS NULL OR project_id = $1) AND ($2::boolean IS NULL OR enabled = $2)
   ORDER BY created_at DESC, id DESC
   LIMIT 1000`;

/**
 * Changes the fields given (null = unchanged). Re-enabling clears the disable record; disabling
 * by hand records who did it; re-enabling or a new URL clears the pause. Primary key.
 */
export const UPDATE_ENDPOINT = `
  UPDATE webhook_endpoints
     SET url = COALESCE($3, url),
         description = CASE WHEN $4::boolean THEN $5 ELSE description END,
         events = COALESCE($6, events),
         enabled = COALESCE($7, enabled),
         disabled_at = CASE WHEN $7 IS TRUE THEN NULL WHEN $7 IS FALSE AND enabled THEN now() ELSE disabled_at END,
         disabled_reason = CASE WHEN $7 IS TRUE THEN NULL WHEN $7 IS FALSE AND enabled THEN $8 ELSE disabled_reason END,
         -- Re-enabled, or pointed at another URL: a fresh start for the circuit breaker.
         consecutive_failures = CASE WHEN ($7 IS TRUE AND NOT enabled) OR $3 <> url THEN 0 ELSE consecutive_failures END,
         paused_until = CASE WHEN ($7 IS TRUE AND NOT enabled) OR $3 <> url THEN NULL ELSE paused_until END,
         updated_at = now()
   WHERE id = $1 AND ($2::text IS NULL OR project_id = $2)
  RETURNING ${ENDPOINT_COLUMNS}`;

/** Deletes an endpoint and (cascade) its delivery log; primary key. */
export const DELETE_ENDPOINT = `
  DELETE FROM webhook_endpoints WHERE id = $1 AND ($2::text IS NULL OR project_id = $2) RETURNING id`;

/** A new secret; the current one stays valid until $4 (the overlap window). Primary key. */
export const ROTATE_SECRET = `
  UPDATE webhook_endpoints
     SET previous_secret_enc = CASE WHEN $4::timestamptz > now() THEN secret_enc END,
         previous_secret_expires_at = CASE WHEN $4::timestamptz > now() THEN $4::timestamptz END,
         secret_enc = $3, secret_hint = $5, updated_at = now()
   WHERE id = $1 AND project_id = $2
  RETURNING ${ENDPOINT_COLUMNS}`;

/**
 * What a delivery attempt needs of its endpoints: URL, state and encrypted secrets (the
 * previous one only while its overlap lasts). Primary key.
 */
export const ENDPOINT_SECRETS = `
  SELECT id, url, enabled, secret_enc AS "secretEnc", last_success_at AS "lastSuccessAt", signature_format AS "signatureFormat",
         consecutive_failures AS "consecutiveFailures",
         CASE WHEN previous_secret_expires_at > now() THEN previous_secret_enc END AS "previousSecretEnc"
    FROM webhook_endpoints WHERE id = ANY($1::uuid[])`;

/** Endpoints switched off by notifyd or by hand, for the digest; webhook_endpoints_disabled_idx. */
export const DISABLED_ENDPOINTS = `
  SELECT id, project_id AS "projectId", url, disabled_at AS "disabledAt", disabled_reason AS "disabledReason"
    FROM webhook_endpoints WHERE NOT enabled AND disabled_at IS NOT NULL
   ORDER BY disabled_at DESC LIMIT 100`;

/**
 * Endpoints of enabled webhooks paused by their circuit breaker now (paused_until ahead; an ended
 * pause waits only for its probe), newest pause first, for the digest. No index serves it, on
 * purpose (migration 0091 added none: the claim reads paused_until by primary key): a seq scan of
 * webhook_endpoints and a top-100 sort, cheap because the table is small — at most 50 endpoints
 * a project (MAX_ENDPOINTS_PER_PROJECT) — and the digest runs it once per report.
 * last_failure_at is the failed attempt that set the current pause (TOUCH_ENDPOINTS).
 */
export const PAUSED_ENDPOINTS = `
  SELECT id, project_id AS "projectId", url, last_failure_at AS "lastFailureAt",
         paused_until AS "pausedUntil", consecutive_failures AS "consecutiveFailures"
    FROM webhook_endpoints WHERE enabled AND paused_until > now()
   ORDER BY last_failure_at DESC NULLS LAST, id LIMIT 100`;
