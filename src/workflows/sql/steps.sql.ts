/**
 * Throttle: counts this run in the window of its key, atomically under the row's lock; a window
 * older than $7 seconds starts over. Returns the count including this run.
 * $1 project $2 workflow $3 step $4 subscriber $5 key $6 (unused) $7 window seconds
 */
export const THROTTLE_HIT = `
  INSERT INTO workflow_throttles AS t (project_id, workflow_id, step_index, subscriber_id, throttle_key, window_start, count)
  VALUES ($1, $2, $3, $4, $5, now(), 1)
  ON CONFLICT (project_id, workflow_id, step_index, subscriber_id, throttle_key) DO UPDATE
     SET window_start = CASE WHEN t.window_start <= now() - make_interval(secs => $6) THEN now() ELSE t.window_start END,
         count = CASE WHEN t.window_start <= now() - make_interval(secs => $6) THEN 1 ELSE t.count + 1 END
  RETURNING count`;

/**
 * Digest: joins the open digest of this key, or opens one, in one statement. The partial
 * unique index workflow_digests_open_idx makes it atomic without a lock: of two runs arriving
 * in the same instant one inserts and the other takes the DO UPDATE branch on that row (and
 * waits for it to commit). A digest that closed meanwhile no longer conflicts, so the run opens
 * a new one. The item insert is idempotent per run (primary key), so a retried step adds
 * nothing twice. Returns the digest and whether this run leads it (opened it).
 * $1 project $2 workflow $3 step $4 subscriber $5 key $6 run $7 window seconds $8 payload
 */
export const JOIN_DIGEST = `
  WITH d AS (
    INSERT INTO workflow_digests AS g (project_id, workflow_id, step_index, subscriber_id, digest_key, leader_run_id, closes_at)
    VALUES ($1, $2, $3, $4, $5, $6, now() + make_interval(secs => $7))
    ON CONFLICT (project_id, workflow_id, step_index, subscriber_id, digest_key) WHERE status = 'open'
    DO UPDATE SET closes_at = g.closes_at
    RETURNING g.id, g.leader_run_id AS "leaderRunId", g.closes_at AS "closesAt"
  ), item AS (
    INSERT INTO workflow_digest_items (digest_id, run_id, payload)
    SELECT id, $6, $8::jsonb FROM d
    ON CONFLICT (digest_id, run_id) DO NOTHING
  )
  SELECT * FROM d`;

/**
 * Closes a digest; a no-op if it is closed already (a retried close step). Run it in the same
 * transaction as DIGEST_ITEMS and before it: READ COMMITTED gives the SELECT a snapshot taken
 * after this UPDATE won the row lock, so an item that joined just before the close is seen.
 * (One statement would read the items with a snapshot from before the lock wait.)
 */
export const CLOSE_DIGEST = `UPDATE workflow_digests SET status = 'closed', closed_at = now() WHERE id = $1 AND status = 'open'`;

/**
 * A digest's first items in arrival order, at most $2 of them and, of those, as many as fit in
 * $3 bytes of JSON: a digest collects events for up to 7 days and each may carry a payload of
 * megabytes, so reading them all could exhaust the worker (and again at every retry of the
 * close). Only the $2 first are sized. DIGEST_ITEM_COUNT gives the true count. Primary key prefix.
 */
export const DIGEST_ITEMS = `
  SELECT payload FROM (
    SELECT payload, created_at, run_id,
           sum(octet_length(payload::text)) OVER (ORDER BY created_at, run_id) AS upto
      FROM (SELECT payload, created_at, run_id FROM workflow_digest_items
             WHERE digest_id = $1 ORDER BY created_at, run_id LIMIT $2) first
  ) sized
   WHERE upto <= $3
   ORDER BY created_at, run_id`;

/** Every item of a digest, counted (primary key prefix). */
export const DIGEST_ITEM_COUNT = `SELECT count(*)::int AS count FROM workflow_digest_items WHERE digest_id = $1`;

/**
 * Retention: digests closed or cancelled before $1, at most $2 per statement; their items (each
 * a copy of an event's payload) go with them by cascade. Open digests are never touched.
 */
export const PURGE_DIGESTS = `
  WITH doomed AS (
    SELECT id FROM workflow_digests WHERE status IN ('closed','cancelled') AND closed_at < $1 LIMIT $2
  )
  DELETE FROM workflow_digests WHERE id = ANY(ARRAY(SELECT id FROM doomed))`;

/**
 * Retention: throttle counters whose window started before $1 and more than 30 days ago (the
 * longest window), at most $2 per statement. Such a window is over: the next hit would start it
 * again at 1, which is what it does when the row is gone. Primary key.
 */
export const PURGE_THROTTLES = `
  DELETE FROM workflow_throttles
   WHERE (project_id, workflow_id, step_index, subscriber_id, throttle_key) IN (
     SELECT project_id, workflow_id, step_index, subscriber_id, throttle_key FROM workflow_throttles
      WHERE window_start < LEAST($1::timestamptz, now() - interval '30 days') LIMIT $2
   )`;
