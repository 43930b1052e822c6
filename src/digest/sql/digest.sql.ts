/**
 * The digest's readings: the live queue, the projects and the database's own statistics. The
 * live queue only touches live rows (the partial indexes). The window (outcomes, causes,
 * latency, evidence) has its own file, window.sql.ts, with the hourly rollup it reads.
 */

/**
 * Live jobs by status, the oldest due job per band, jobs held past the lease ($1 seconds) and
 * the retry backlog by channel × attempts. Served by jobs_claim_idx (pending/retry) and
 * jobs_processing_idx (processing): finished rows are never read.
 */
export const QUEUE_SNAPSHOT = `
  WITH live AS (
    SELECT status, priority, run_at, claimed_at, channel, attempts, next_retry_at
      FROM jobs WHERE status IN ('pending','retry')
    UNION ALL
    SELECT status, priority, run_at, claimed_at, channel, attempts, next_retry_at
      FROM jobs WHERE status = 'processing'
  )
  SELECT
    count(*) FILTER (WHERE status = 'pending')::int    AS pending,
    count(*) FILTER (WHERE status = 'processing')::int AS processing,
    count(*) FILTER (WHERE status = 'retry')::int      AS retry,
    count(*) FILTER (WHERE status = 'processing' AND claimed_at < now() - make_interval(secs => $1))::int AS stuck_processing,
    extract(epoch FROM now() - min(run_at) FILTER (WHERE status IN ('pending','retry') AND run_at <= now() AND priority < 50))::float8 AS urgent,
    extract(epoch FROM now() - min(run_at) FILTER (WHERE status IN ('pending','retry') AND run_at <= now() AND priority >= 50 AND priority < 80))::float8 AS normal,
    extract(epoch FROM now() - min(run_at) FILTER (WHERE status IN ('pending','retry') AND run_at <= now() AND priority >= 80))::float8 AS bulk,
    (SELECT COALESCE(json_agg(r ORDER BY r.channel, r.attempts), '[]'::json) FROM (
       SELECT channel, attempts, count(*)::int AS count, min(next_retry_at) AS next_retry_at
         FROM live WHERE status = 'retry' GROUP BY channel, attempts) r) AS retries_waiting
  FROM live`;

/** Every project with its sender; a handful of rows (primary key scan). */
export const PROJECTS = `
  SELECT id, name, channels, from_email, from_name, rate_limit_per_min
    FROM projects ORDER BY id`;

/**
 * The database's view: dead tuples on the queue table (pg_stat_user_tables), what keeps
 * autovacuum away from it, and active
 * sessions waiting on the NOTIFY commit lock. That lock is an AccessExclusiveLock on object 0
 * of pg_database (class 1262) in database 0, taken by every transaction that NOTIFYs just
 * before it commits; many sessions waiting on Lock:object for it means commits are being
 * serialised cluster-wide (seed 003).
 */
export const DATABASE_HEALTH = `
  SELECT
    COALESCE((SELECT n_live_tup FROM pg_stat_user_tables WHERE relid = 'jobs'::regclass), 0)::float8 AS live,
    COALESCE((SELECT n_dead_tup FROM pg_stat_user_tables WHERE relid = 'jobs'::regclass), 0)::float8 AS dead,
    (SELECT GREATEST(last_autovacuum, last_vacuum) FROM pg_stat_user_tables WHERE relid = 'jobs'::regclass) AS last_vacuum,
    -- What keeps autovacuum off jobs (AUTOVACUUM_BLOCKERS names them): the server's switch (a
    -- sighup setting, the same in every session); track_counts as notifyd's sessions see it (it
    -- can be set per database or role, and writes made with it off are not counted, so they never
    -- trigger a vacuum); the table's option. The CASE guards the cast: jobs has non-boolean
    -- options (fillfactor, scale factors) too.
    NOT current_setting('autovacuum')::bool AS server_autovacuum_off,
    NOT current_setting('track_counts')::bool AS session_track_counts_off,
    EXISTS (SELECT 1 FROM pg_class c CROSS JOIN LATERAL pg_options_to_table(c.reloptions) o
             WHERE c.oid = 'jobs'::regclass
               AND CASE WHEN o.option_name = 'autovacuum_enabled' THEN NOT o.option_value::bool ELSE false END) AS table_autovacuum_disabled,
    (SELECT count(*)::int FROM pg_stat_activity a
      WHERE a.wait_event_type = 'Lock' AND a.wait_event = 'object' AND a.state = 'active'
        AND EXISTS (SELECT 1 FROM pg_locks l
                     WHERE l.pid = a.pid AND NOT l.granted AND l.locktype = 'object'
                       AND l.database = 0 AND l.classid = 'pg_database'::regclass AND l.objid = 0)) AS notify_lock_waiters`;
