import { REASON } from './window.sql.js';

/**
 * The digest's readings: the live queue, the projects and the database's own statistics. The
 * live queue only touches live rows (the partial indexes). The window (outcomes, causes,
 * latency, evidence) has its own file, window.sql.ts, with the hourly rollup it reads.
 */

/**
 * The live queue (pending and retry jobs), one hashed pass with three grouping sets, told apart
 * by GROUPING(band, provider, attempts):
 *   3 = (channel, project, band): pending, retry, due (run_at passed: claimable now), late
 *       (scheduled_at passed: its sender wanted it out already, whatever fair share, a pause
 *       or a retry back-off made of run_at) and the oldest late scheduled_at;
 *   5 = (channel, provider, project) of retry jobs: what is failing now, before it fails for
 *       good (count, oldest scheduled_at, next retry, newest job);
 *   6 = (channel, attempts) of retry jobs: the retry backlog.
 * No per-row expression beyond CASEs: a retry storm of 100 000 jobs costs a scan of them, not
 * 100 000 regular expressions (RETRY_REASONS samples the errors). Served by jobs_claim_idx (its
 * predicate is exactly status IN ('pending','retry')): finished rows are never read. Lateness
 * is measured from scheduled_at, the time the sender asked for (the enqueue time when it asked
 * for none), never from run_at, the fair-share slot.
 */
export const LIVE_QUEUE = `
  WITH live AS (
    SELECT channel, project_id, status, attempts, next_retry_at, scheduled_at, run_at, id,
           CASE WHEN priority < 50 THEN 'urgent' WHEN priority < 80 THEN 'normal' ELSE 'bulk' END AS band,
           CASE WHEN status = 'retry' THEN COALESCE(provider, 'none') END AS provider
      FROM jobs
     WHERE status IN ('pending','retry')
  )
  SELECT GROUPING(band, provider, attempts) AS grouping_set, channel, project_id, band, provider, attempts,
         count(*) FILTER (WHERE status = 'pending')::int AS pending,
         count(*) FILTER (WHERE status = 'retry')::int   AS retry,
         count(*) FILTER (WHERE run_at <= now())::int     AS due,
         count(*) FILTER (WHERE scheduled_at <= now())::int AS late,
         min(scheduled_at) FILTER (WHERE scheduled_at <= now()) AS oldest_late_at,
         min(next_retry_at) AS next_retry_at,
         max(id::text) FILTER (WHERE status = 'retry') AS newest_retry_id
    FROM live
   GROUP BY GROUPING SETS ((channel, project_id, band), (channel, provider, project_id), (channel, attempts))
  HAVING GROUPING(band, provider, attempts) = 3 OR count(*) FILTER (WHERE status = 'retry') > 0`;

/**
 * Why jobs are retrying: the errors of the next $1 retry jobs in claim order, normalised like
 * the failure causes (REASON), counted per channel × provider × cause. A sample, so that the
 * regular expressions cost the same behind a retry storm of any size; LIVE_QUEUE has the exact
 * counts. jobs_claim_idx, read in order and stopped at the limit.
 */
export const RETRY_REASONS = `
  SELECT channel, COALESCE(provider, 'none') AS provider, ${REASON} AS reason, count(*)::int AS count
    FROM (SELECT channel, provider, error FROM jobs
           WHERE status IN ('pending','retry') AND status = 'retry'
           ORDER BY priority, run_at
           LIMIT $1) sample
   GROUP BY 1, 2, 3`;

/**
 * For the live queue's transaction only: read it through jobs_claim_idx, with a plain index
 * scan. Right after a burst (a drained campaign) the statistics still count the live jobs as
 * the whole table until ANALYZE runs again, and the planner would scan every row of jobs; and
 * the index still holds an entry for each row version the burst left dead until VACUUM: a plain
 * index scan marks those entries dead as it passes them (a bitmap scan cannot), so only the
 * first read after the burst pays for them. No JIT: a disabled scan still counts in a plan's cost
 * (as 10^10), which would pass jit_above_cost and compile for longer than the read takes.
 */
export const LIVE_QUEUE_PLAN = `
  SELECT set_config('enable_seqscan', 'off', true), set_config('enable_bitmapscan', 'off', true), set_config('jit', 'off', true)`;

/** Jobs processing, and those held past the lease ($1 seconds). Served by jobs_processing_idx. */
export const PROCESSING = `
  SELECT count(*)::int AS processing,
         count(*) FILTER (WHERE claimed_at < now() - make_interval(secs => $1))::int AS stuck_processing
    FROM jobs WHERE status = 'processing'`;

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
    -- The functions behind pg_stat_user_tables, called for jobs alone: the view computes every
    -- column for every table and costs milliseconds to plan.
    COALESCE(pg_stat_get_live_tuples('jobs'::regclass), 0)::float8 AS live,
    COALESCE(pg_stat_get_dead_tuples('jobs'::regclass), 0)::float8 AS dead,
    GREATEST(pg_stat_get_last_autovacuum_time('jobs'::regclass), pg_stat_get_last_vacuum_time('jobs'::regclass)) AS last_vacuum,
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
