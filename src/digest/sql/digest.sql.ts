/**
 * The digest's readings. Three round trips in all: the live queue, the window, and the
 * database's own statistics. The live queue only touches live rows (the partial indexes);
 * the window reads the jobs created or finished in it once (BRIN on created_at and on
 * finished_at) and aggregates every section in that one pass.
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

/** Latency histogram resolution: buckets per factor e (20 → each bucket about 5 % wide). */
export const LATENCY_BUCKETS_PER_E = 20;

/**
 * Everything about the window starting at $1, in one pass over the jobs created or finished
 * in it (jobs_created_at_brin and jobs_finished_at_brin, a BitmapOr of both; a seq scan when
 * the window covers most of the table), one hash aggregation by
 *   (project, channel, provider, reason, latency bucket)
 * where reason is set on failed jobs only (the error normalised: UUIDs and 3+ digit numbers →
 * #, addresses → <email>, 160 characters) and bucket on sent jobs only (log scale of
 * sent_at − scheduled_at, about 5 % wide). That keeps the groups few (projects × channels ×
 * (causes + buckets)) and the caller folds them into outcomes, projects, top causes and
 * p50/p95 — no sort of the window, no second scan. The "newest job" of a failure cause is the
 * max of a fixed-width "finish time + id" text, which a hash aggregate can compute.
 */
const windowStats = (complaints: boolean) => `
  WITH w AS (
    SELECT project_id, channel, COALESCE(provider, 'none') AS provider, status, finished_at,
           CASE WHEN status = 'failed' THEN to_char(finished_at AT TIME ZONE 'UTC', 'YYYYMMDDHH24MISSUS') || id::text END AS newest,
           delivered_at >= $1 AS delivered, bounced_at >= $1 AS bounced,
           ${complaints ? 'complained_at >= $1' : 'false'} AS complained,
           COALESCE(finished_at, sent_at, created_at) >= $1 AS done,
           CASE WHEN status = 'failed' AND COALESCE(finished_at, created_at) >= $1 THEN
             left(regexp_replace(regexp_replace(COALESCE(NULLIF(error, ''), 'no error recorded'),
               '[^\\s<>"'',;:()]+@[^\\s<>"'',;:()]+', '<email>', 'g'),
               '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}|[0-9]{3,}', '#', 'g'), 160)
           END AS reason,
           CASE WHEN sent_at >= scheduled_at AND sent_at >= $1 THEN
             floor(ln(date_part('epoch', sent_at - scheduled_at) + 0.001) * ${LATENCY_BUCKETS_PER_E})::int
           END AS bucket
      FROM jobs
     WHERE created_at >= $1 OR finished_at >= $1
  )
  SELECT project_id, channel, provider, reason, bucket,
         count(*) FILTER (WHERE done AND status = 'sent')::int      AS sent,
         count(*) FILTER (WHERE done AND status = 'failed')::int    AS failed,
         count(*) FILTER (WHERE done AND status = 'bounced')::int   AS bounced,
         count(*) FILTER (WHERE done AND status = 'cancelled')::int AS cancelled,
         count(*) FILTER (WHERE delivered)::int                     AS delivered_events,
         count(*) FILTER (WHERE bounced)::int                       AS bounced_events,
         count(*) FILTER (WHERE complained)::int                    AS complained_events,
         count(*)::int AS n,
         max(finished_at) AS last_finished_at,
         max(newest) AS newest
    FROM w
   GROUP BY project_id, channel, provider, reason, bucket`;

export const WINDOW_STATS = windowStats(false);
/** For the window's transaction only: enough memory that the aggregation is hashed, not sorted. */
export const WINDOW_WORK_MEM = `SET LOCAL work_mem = '64MB'`;
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
