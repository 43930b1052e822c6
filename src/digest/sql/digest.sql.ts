/**
 * The digest's readings. Three round trips in all: the live queue, the window, and the
 * database's own statistics. The live queue only touches live rows (the partial indexes);
 * the window reads jobs created or finished in the window once (BRIN on created_at and on
 * finished_at) into a CTE that every section aggregates.
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

/**
 * Everything about the window starting at $1: outcomes per channel × provider, the top ten
 * normalised failure causes with their newest job, send latency percentiles, deliverability
 * from the jobs' delivered_at / bounced_at stamps, per-project counts and when a job last
 * finished. Served by jobs_created_at_brin and jobs_finished_at_brin (a BitmapOr of both).
 * $2: the complaint column's presence is decided by the caller (complained_at may not exist
 * yet): this statement is used when it does not; WINDOW_STATS_WITH_COMPLAINTS when it does.
 */
const windowStats = (complaints: boolean) => `
  WITH w AS MATERIALIZED (
    SELECT id, project_id, channel, COALESCE(provider, 'none') AS provider, status, error,
           created_at, scheduled_at, sent_at, finished_at, delivered_at, bounced_at
           ${complaints ? ', complained_at' : ', NULL::timestamptz AS complained_at'}
      FROM jobs
     WHERE created_at >= $1 OR finished_at >= $1
  ),
  done AS (
    SELECT * FROM w WHERE COALESCE(finished_at, sent_at, created_at) >= $1
  )
  SELECT
    (SELECT COALESCE(json_agg(o ORDER BY o.channel, o.provider), '[]'::json) FROM (
       SELECT channel, provider,
              count(*) FILTER (WHERE status = 'sent')::int      AS sent,
              count(*) FILTER (WHERE status = 'failed')::int    AS failed,
              count(*) FILTER (WHERE status = 'bounced')::int   AS bounced,
              count(*) FILTER (WHERE status = 'cancelled')::int AS cancelled
         FROM done WHERE status IN ('sent','failed','bounced','cancelled')
        GROUP BY channel, provider) o) AS outcomes,
    (SELECT COALESCE(json_agg(f ORDER BY f.count DESC, f.last_seen DESC), '[]'::json) FROM (
       SELECT channel, reason, count(*)::int AS count,
              (array_agg(id ORDER BY finished_at DESC NULLS LAST))[1] AS sample_job_id,
              max(finished_at) AS last_seen
         FROM (SELECT id, channel, finished_at,
                      left(regexp_replace(regexp_replace(regexp_replace(COALESCE(NULLIF(error, ''), 'no error recorded'),
                        '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}', '#', 'gi'),
                        '[^\\s<>"'',;:()]+@[^\\s<>"'',;:()]+', '<email>', 'g'),
                        '[0-9]{3,}', '#', 'g'), 160) AS reason
                 FROM done WHERE status = 'failed') failed
        GROUP BY channel, reason
        ORDER BY count(*) DESC, max(finished_at) DESC
        LIMIT 10) f) AS failures,
    (SELECT COALESCE(json_agg(l ORDER BY l.channel), '[]'::json) FROM (
       SELECT channel,
              percentile_cont(0.5)  WITHIN GROUP (ORDER BY extract(epoch FROM sent_at - scheduled_at))::float8 AS p50_seconds,
              percentile_cont(0.95) WITHIN GROUP (ORDER BY extract(epoch FROM sent_at - scheduled_at))::float8 AS p95_seconds,
              count(*)::int AS samples
         FROM done WHERE sent_at IS NOT NULL AND sent_at >= scheduled_at
        GROUP BY channel) l) AS latency,
    (SELECT count(*)::int FROM w WHERE delivered_at >= $1)  AS delivered,
    (SELECT count(*)::int FROM w WHERE bounced_at >= $1)    AS bounced,
    (SELECT count(*)::int FROM w WHERE complained_at >= $1) AS complained,
    (SELECT COALESCE(json_object_agg(p.project_id, json_build_object('sent', p.sent, 'failed', p.failed)), '{}'::json) FROM (
       SELECT project_id,
              count(*) FILTER (WHERE status = 'sent')::int   AS sent,
              count(*) FILTER (WHERE status = 'failed')::int AS failed
         FROM done GROUP BY project_id) p) AS per_project,
    (SELECT max(finished_at) FROM w) AS last_finished_at`;

export const WINDOW_STATS = windowStats(false);
export const WINDOW_STATS_WITH_COMPLAINTS = windowStats(true);

/** Whether jobs has a complained_at column yet (the governance issue adds complaint ingestion). */
export const HAS_COMPLAINT_COLUMN = `
  SELECT EXISTS (
    SELECT 1 FROM information_schema.columns
     WHERE table_schema = current_schema() AND table_name = 'jobs' AND column_name = 'complained_at') AS present`;

/** Every project with its sender; a handful of rows (primary key scan). */
export const PROJECTS = `
  SELECT id, name, channels, from_email, from_name, rate_limit_per_min
    FROM projects ORDER BY id`;

/**
 * The database's view: dead tuples on the queue table (pg_stat_user_tables) and active
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
    (SELECT count(*)::int FROM pg_stat_activity a
      WHERE a.wait_event_type = 'Lock' AND a.wait_event = 'object' AND a.state = 'active'
        AND EXISTS (SELECT 1 FROM pg_locks l
                     WHERE l.pid = a.pid AND NOT l.granted AND l.locktype = 'object'
                       AND l.database = 0 AND l.classid = 'pg_database'::regclass AND l.objid = 0)) AS notify_lock_waiters`;
