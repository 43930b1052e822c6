/**
 * The digest window's SQL: the rollup (job_outcome_hourly, migrations 64 and 80), how it is
 * rolled from jobs, and how a window reads it. The rollup holds periods: whole UTC hours before
 * hours_through, 5-minute periods from there to rolled_through (which may stand inside one).
 * A window [since, now) is read as
 *   the rolled periods [a, rolled_through) from the rollup (a = since rounded up to its period)
 *   + the rest from jobs: [since, a), [rolled_through, ∞) and any rolled period marked dirty,
 * so the answer is exact whatever the rollup's progress; the rollup only makes it fast.
 *
 * Every number is attributed to the period in which its job finished (finished_at): outcomes,
 * failure causes, the latency of sent jobs, and the provider evidence on those jobs (delivered,
 * bounced, complained — the "send cohort" of the window, which is how bounce and complaint
 * rates are usually computed). Evidence that arrives after the period was rolled changes a job
 * of a rolled period; the jobs_rollup_dirty trigger marks that period (see migration 80).
 */

/** A rollup period inside the open hours: 5 minutes, by the epoch (no time zone involved). */
export const PERIOD_SECONDS = 300;
/** The 5-minute period of a timestamp; the trigger of migration 80 computes the same. */
export const periodOf = (column: string) =>
  `to_timestamp(floor(extract(epoch FROM ${column}) / ${PERIOD_SECONDS}) * ${PERIOD_SECONDS})`;
const HOUR_OF_FINISH = `date_trunc('hour', finished_at, 'UTC')`;

/** Latency histogram resolution: buckets per factor e (20 → each bucket about 5 % wide). */
export const LATENCY_BUCKETS_PER_E = 20;

/**
 * The error normalised into a failure cause: addresses → <*@domain> (the domain is often what
 * is wrong, and it names no person), UUIDs and numbers of 3 digits
 * or more → #, except a lone 3-digit number from 100 to 599: the provider's HTTP status
 * (`Resend 422 validation_error`) tells a caller-data refusal from a credentials one, so it
 * stays. At most 160 characters.
 */
export const REASON = `
  left(regexp_replace(regexp_replace(COALESCE(NULLIF(error, ''), 'no error recorded'),
    '[^\\s<>"'',;:()]+@([^\\s<>"'',;:()]+)', '<*@\\1>', 'g'),
    '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}|[0-9]{4,}|(?<![0-9])[06-9][0-9]{2}(?![0-9])', '#', 'g'), 160)`;

/**
 * The window rows of the finished jobs matching `where`, one hash aggregation with two grouping
 * sets (no sort, one pass):
 *   (project, channel, provider, cause): outcome counts, evidence, newest finish, newest
 *     failed job ("YYYYMMDDHHMMSSffffff" + id, so a hash aggregate can take its max);
 *   (channel, latency bucket): n, the histogram of sent_at − scheduled_at (log scale, ~5 %).
 * The two kinds are told apart by project_id (NULL on histogram rows). With a `period` every
 * row also carries its period (`hour`: the UTC hour, or the 5-minute period): what the rollup
 * stores.
 */
const windowRows = (where: string, period: 'hour' | 'period' | null) => {
  const hour = period ? 'hour, ' : '';
  return `
  WITH w AS (
    SELECT ${period === 'hour' ? `${HOUR_OF_FINISH} AS hour,` : period === 'period' ? `${periodOf('finished_at')} AS hour,` : ''}
           project_id, channel, COALESCE(provider, 'none') AS provider, status, finished_at,
           delivered_at IS NOT NULL AS delivered, bounced_at IS NOT NULL AS bounced, complained_at IS NOT NULL AS complained,
           CASE WHEN status = 'failed' THEN to_char(finished_at AT TIME ZONE 'UTC', 'YYYYMMDDHH24MISSUS') || id::text END AS newest,
           CASE WHEN status = 'failed' THEN ${REASON} END AS reason,
           CASE WHEN sent_at >= scheduled_at THEN
             floor(ln(date_part('epoch', sent_at - scheduled_at) + 0.001) * ${LATENCY_BUCKETS_PER_E})::int
           END AS bucket
      FROM jobs
     WHERE ${where}
  )
  SELECT ${hour}project_id, channel, provider, reason, bucket,
         (CASE WHEN GROUPING(bucket) = 1 THEN count(*) FILTER (WHERE status = 'sent') ELSE 0 END)::int      AS sent,
         (CASE WHEN GROUPING(bucket) = 1 THEN count(*) FILTER (WHERE status = 'failed') ELSE 0 END)::int    AS failed,
         (CASE WHEN GROUPING(bucket) = 1 THEN count(*) FILTER (WHERE status = 'bounced') ELSE 0 END)::int   AS bounced,
         (CASE WHEN GROUPING(bucket) = 1 THEN count(*) FILTER (WHERE status = 'cancelled') ELSE 0 END)::int AS cancelled,
         (CASE WHEN GROUPING(bucket) = 1 THEN count(*) FILTER (WHERE delivered) ELSE 0 END)::int            AS delivered_events,
         (CASE WHEN GROUPING(bucket) = 1 THEN count(*) FILTER (WHERE bounced) ELSE 0 END)::int              AS bounced_events,
         (CASE WHEN GROUPING(bucket) = 1 THEN count(*) FILTER (WHERE complained) ELSE 0 END)::int           AS complained_events,
         (CASE WHEN GROUPING(bucket) = 0 THEN count(*) ELSE 0 END)::int AS n,
         CASE WHEN GROUPING(bucket) = 1 THEN max(finished_at) END AS last_finished_at,
         CASE WHEN GROUPING(bucket) = 1 THEN max(newest) END AS newest
    FROM w
   GROUP BY GROUPING SETS ((${hour}project_id, channel, provider, reason), (${hour}channel, bucket))
  HAVING GROUPING(bucket) = 1 OR bucket IS NOT NULL`;
};

const COLUMNS = `project_id, channel, provider, reason, bucket, sent, failed, bounced, cancelled,
  delivered_events, bounced_events, complained_events, n, last_finished_at, newest`;

/**
 * The rollup's progress and the rolled periods changed since: one row, two tiny tables. Read in
 * the window's REPEATABLE READ transaction, so that it and WINDOW_ROWS see one snapshot (a
 * rollup run commits its rows and its progress together).
 */
export const ROLLUP_STATE = `
  SELECT (SELECT rolled_through FROM job_rollup_state) AS rolled_through,
         (SELECT hours_through FROM job_rollup_state) AS hours_through,
         ARRAY(SELECT hour FROM job_rollup_dirty ORDER BY hour) AS dirty`;

/**
 * The window starting at $1: rolled periods [$2, $3) except the dirty ones ($6 hours, $7
 * 5-minute periods) from job_outcome_hourly (job_outcome_hourly_hour_idx, a few rows per
 * period), plus from jobs the finished jobs of [$1, $2), of [$3, ∞) and of the dirty periods
 * (within [$4, $5)). Each arm of the OR is a range on finished_at, so jobs_finished_at_brin
 * reads only those pages (a BitmapOr); a window the rollup has not reached yet degrades to the
 * one-pass scan of before.
 */
export const WINDOW_ROWS = `
  (SELECT project_id, channel, provider, reason, bucket,
         sum(sent)::int AS sent, sum(failed)::int AS failed, sum(bounced)::int AS bounced, sum(cancelled)::int AS cancelled,
         sum(delivered_events)::int AS delivered_events, sum(bounced_events)::int AS bounced_events,
         sum(complained_events)::int AS complained_events, sum(n)::int AS n,
         max(last_finished_at) AS last_finished_at, max(newest) AS newest
    FROM job_outcome_hourly
   WHERE hour >= $2 AND hour < $3 AND hour <> ALL($6::timestamptz[]) AND hour <> ALL($7::timestamptz[])
   GROUP BY project_id, channel, provider, reason, bucket)
  UNION ALL
  (${windowRows(
    `(finished_at >= $1 AND finished_at < $2)
        OR finished_at >= $3
        OR (finished_at >= $4 AND finished_at < $5
            AND (${HOUR_OF_FINISH} = ANY($6::timestamptz[]) OR ${periodOf('finished_at')} = ANY($7::timestamptz[])))`,
    null,
  )})`;

/**
 * For the window's transaction only. Enough memory that the aggregations are hashed, not
 * sorted: the planner cannot tell how few groups the expressions make and would sort the
 * window (spilling at the default work_mem). jobs read through jobs_finished_at_brin, never
 * scanned whole: right after a burst the statistics still say finished_at is NULL everywhere
 * (until ANALYZE runs again), the planner then deems the BRIN useless, and it would read all of
 * jobs to find the few rows finished since the rollup's last period. And no parallel workers:
 * the read is a few pages, and starting two workers cost more than all of it (tens of ms on a
 * busy machine). No JIT either: a disabled scan still counts in a plan's cost (as 10^10), which
 * would pass jit_above_cost and compile for hundreds of milliseconds a statement that runs in one.
 */
export const WINDOW_SETTINGS = `
  SELECT set_config('work_mem', '64MB', true), set_config('enable_seqscan', 'off', true),
         set_config('max_parallel_workers_per_gather', '0', true), set_config('jit', 'off', true)`;

/**
 * Summarizes the page ranges of jobs_finished_at_brin that have none yet (pages added since the
 * last VACUUM): until then every read whose range touches them reads them all (a burst of
 * finalised jobs appends thousands of pages). Autovacuum does it as well, when it runs; this
 * does it within a tick, and costs nothing when there is nothing new. Needs to own the index.
 */
export const SUMMARIZE_FINISHED_AT = `SELECT brin_summarize_new_values('jobs_finished_at_brin'::regclass) AS ranges`;
/** The window's two reads see one snapshot. Must be the transaction's first statement. */
export const WINDOW_SNAPSHOT = `SET TRANSACTION ISOLATION LEVEL REPEATABLE READ`;

/**
 * For a roll's transaction. Its commit does not wait for the disk: the rollup is derived from
 * jobs, and a roll lost in a crash is rolled again (rows and progress commit together). And jobs
 * read through the BRIN, without JIT, as in WINDOW_SETTINGS: right after a burst the stale
 * statistics made the planner scan the whole table for a slice of seconds.
 */
export const ROLL_SETTINGS = `
  SELECT set_config('synchronous_commit', 'off', true), set_config('enable_seqscan', 'off', true), set_config('jit', 'off', true)`;

/**
 * Takes the rollup's row lock (one roller at a time across replicas and manual runs) and
 * reads its progress.
 */
export const LOCK_ROLLUP = `SELECT rolled_through, hours_through FROM job_rollup_state FOR UPDATE`;

/**
 * The same without waiting: no row when another roller holds the lock (the digest's own
 * catch-up then leaves the open periods to it and reads them from jobs).
 */
export const TRY_LOCK_ROLLUP = `SELECT rolled_through, hours_through FROM job_rollup_state FOR UPDATE SKIP LOCKED`;

/**
 * The rollup's progress and whether any period is marked dirty, without a lock: a run that finds
 * nothing to do opens no write transaction. One-row table; the dirty table's primary key.
 */
export const ROLLUP_PROGRESS = `
  SELECT (SELECT rolled_through FROM job_rollup_state) AS rolled_through,
         (SELECT hours_through FROM job_rollup_state) AS hours_through,
         EXISTS (SELECT 1 FROM job_rollup_dirty) AS dirty`;

/**
 * The point before which no transaction can still stamp finished_at, so the open periods may
 * be rolled up to it. finished_at is its transaction's now(), the transaction's start: so it is
 * the start of the oldest transaction still open on this database (pg_stat_activity, client
 * backends, ours excepted), and at most now − $1 s (a transaction that has just begun may not
 * be listed yet). Sessions notifyd's role may not inspect (another role's, without
 * pg_read_all_stats) could be stamping: then, like a transaction open for longer than $2 s,
 * only now − $2 s is trusted (the margin the whole hours keep anyway).
 */
export const SETTLED_POINT = `
  SELECT GREATEST(
           now() - make_interval(secs => $2),
           LEAST(now() - make_interval(secs => $1),
                 (SELECT min(xact_start) FROM pg_stat_activity
                   WHERE datname = current_database() AND backend_type = 'client backend' AND pid <> pg_backend_pid()),
                 (SELECT now() - make_interval(secs => $2) FROM pg_stat_activity
                   WHERE datname = current_database() AND query = '<insufficient privilege>' LIMIT 1))) AS settled`;

/** The rollup's progress and the settled point (SETTLED_POINT, $1 and $2 the same), unlocked: whether a roll is worth a write. */
export const OPEN_LAG = `
  SELECT s.rolled_through, s.hours_through, p.settled
    FROM job_rollup_state s, (${SETTLED_POINT}) p`;

/** Forget periods [$1, $2) (only those in $3 when it is not null) before rolling them again. */
export const DELETE_ROLLED = `
  DELETE FROM job_outcome_hourly
   WHERE hour >= $1 AND hour < $2 AND ($3::timestamptz[] IS NULL OR hour = ANY($3::timestamptz[]))`;

/**
 * Roll whole hours [$1, $2) (only those in $3 when it is not null) from scratch: the jobs that
 * finished in them (jobs_finished_at_brin). Idempotent with DELETE_ROLLED before it.
 */
export const ROLL_HOURS = `
  INSERT INTO job_outcome_hourly (hour, ${COLUMNS})
  ${windowRows(
    `finished_at >= $1 AND finished_at < $2
        AND ($3::timestamptz[] IS NULL OR ${HOUR_OF_FINISH} = ANY($3::timestamptz[]))`,
    'hour',
  )}`;

/**
 * Roll the jobs finished in [$1, $2) (only those of the 5-minute periods in $3 when it is not
 * null) into 5-minute periods, merged with the rows those periods already hold (a slice that
 * ends inside a period is completed by the next one): one statement, one row per period and
 * group whatever the number of slices. jobs_finished_at_brin; the rollup's hour index.
 */
export const ROLL_PERIODS = `
  WITH fresh AS MATERIALIZED (
    ${windowRows(
      `finished_at >= $1 AND finished_at < $2
          AND ($3::timestamptz[] IS NULL OR ${periodOf('finished_at')} = ANY($3::timestamptz[]))`,
      'period',
    )}
  ), earlier AS (
    DELETE FROM job_outcome_hourly WHERE hour IN (SELECT DISTINCT hour FROM fresh) RETURNING hour, ${COLUMNS}
  )
  INSERT INTO job_outcome_hourly (hour, ${COLUMNS})
  SELECT hour, project_id, channel, provider, reason, bucket,
         sum(sent), sum(failed), sum(bounced), sum(cancelled), sum(delivered_events), sum(bounced_events),
         sum(complained_events), sum(n), max(last_finished_at), max(newest)
    FROM (SELECT hour, ${COLUMNS} FROM fresh UNION ALL SELECT hour, ${COLUMNS} FROM earlier) slices
   GROUP BY hour, project_id, channel, provider, reason, bucket`;

/** Whole hours are rolled before $1; so is everything else (rolled_through never moves back). */
export const ADVANCE_HOURS = `UPDATE job_rollup_state SET hours_through = $1, rolled_through = GREATEST(rolled_through, $1)`;

/** Everything finished before $1 is rolled (the open periods up to it). */
export const ADVANCE_PERIODS = `UPDATE job_rollup_state SET rolled_through = $1`;

/** The periods marked dirty so far, taken (deleted) by the run that re-rolls them. */
export const TAKE_DIRTY = `DELETE FROM job_rollup_dirty RETURNING hour`;
