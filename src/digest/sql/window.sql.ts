/**
 * The digest window's SQL: the hourly rollup (job_outcome_hourly, migration 0064), how it is
 * rolled from jobs, and how a window reads it. A window [since, now) is read as
 *   complete hours [a, b) from the rollup (a = since rounded up to the hour, b = rolled_through)
 *   + the rest from jobs: [since, a), [b, ∞) and any rolled hour marked dirty since,
 * so the answer is exact whatever the rollup's progress; the rollup only makes it fast.
 *
 * Every number is attributed to the UTC hour in which its job finished (finished_at): outcomes,
 * failure causes, the latency of sent jobs, and the provider evidence on those jobs (delivered,
 * bounced, complained — the "send cohort" of the window, which is how bounce and complaint
 * rates are usually computed). Evidence that arrives after the hour was rolled changes a job of
 * a rolled hour; the jobs_rollup_dirty trigger marks that hour (see the migration).
 */

/** Latency histogram resolution: buckets per factor e (20 → each bucket about 5 % wide). */
export const LATENCY_BUCKETS_PER_E = 20;

/** The error normalised into a failure cause: UUIDs and 3+ digit numbers → #, addresses → <email>, 160 characters. */
export const REASON = `
  left(regexp_replace(regexp_replace(COALESCE(NULLIF(error, ''), 'no error recorded'),
    '[^\\s<>"'',;:()]+@[^\\s<>"'',;:()]+', '<email>', 'g'),
    '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}|[0-9]{3,}', '#', 'g'), 160)`;

/**
 * The window rows of the finished jobs matching `where`, one hash aggregation with two grouping
 * sets (no sort, one pass):
 *   (project, channel, provider, cause): outcome counts, evidence, newest finish, newest
 *     failed job ("YYYYMMDDHHMMSSffffff" + id, so a hash aggregate can take its max);
 *   (channel, latency bucket): n, the histogram of sent_at − scheduled_at (log scale, ~5 %).
 * The two kinds are told apart by project_id (NULL on histogram rows). With `byHour` every
 * row also carries its UTC hour: that is what the rollup stores.
 */
const windowRows = (where: string, byHour: boolean) => {
  const hour = byHour ? 'hour, ' : '';
  return `
  WITH w AS (
    SELECT ${byHour ? `date_trunc('hour', finished_at, 'UTC') AS hour,` : ''}
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
 * The rollup's progress and the rolled hours changed since: one row, two tiny tables. Read in
 * the window's REPEATABLE READ transaction, so that it and WINDOW_ROWS see one snapshot (a
 * rollup run commits its hours and rolled_through together).
 */
export const ROLLUP_STATE = `
  SELECT (SELECT rolled_through FROM job_rollup_state) AS rolled_through,
         ARRAY(SELECT hour FROM job_rollup_dirty ORDER BY hour) AS dirty`;

/**
 * The window starting at $1: rolled hours [$2, $3) except the dirty ones ($6) from
 * job_outcome_hourly (job_outcome_hourly_hour_idx, a few rows per hour), plus from jobs the
 * finished jobs of [$1, $2), of [$3, ∞) and of the dirty hours (within [$4, $5)). Each arm of
 * the OR is a range on finished_at, so jobs_finished_at_brin reads only those pages (a
 * BitmapOr); a window the rollup has not reached yet degrades to the one-pass scan of before.
 */
export const WINDOW_ROWS = `
  (SELECT project_id, channel, provider, reason, bucket,
         sum(sent)::int AS sent, sum(failed)::int AS failed, sum(bounced)::int AS bounced, sum(cancelled)::int AS cancelled,
         sum(delivered_events)::int AS delivered_events, sum(bounced_events)::int AS bounced_events,
         sum(complained_events)::int AS complained_events, sum(n)::int AS n,
         max(last_finished_at) AS last_finished_at, max(newest) AS newest
    FROM job_outcome_hourly
   WHERE hour >= $2 AND hour < $3 AND hour <> ALL($6::timestamptz[])
   GROUP BY project_id, channel, provider, reason, bucket)
  UNION ALL
  (${windowRows(`(finished_at >= $1 AND finished_at < $2)
        OR finished_at >= $3
        OR (finished_at >= $4 AND finished_at < $5 AND date_trunc('hour', finished_at, 'UTC') = ANY($6::timestamptz[]))`, false)})`;

/** For the window's transaction only: enough memory that the aggregations are hashed, not sorted. */
export const WINDOW_WORK_MEM = `SET LOCAL work_mem = '64MB'`;
/** The window's two reads see one snapshot. Must be the transaction's first statement. */
export const WINDOW_SNAPSHOT = `SET TRANSACTION ISOLATION LEVEL REPEATABLE READ`;

/**
 * Takes the rollup's row lock (one roller at a time across replicas and manual runs) and
 * reads its progress.
 */
export const LOCK_ROLLUP = `SELECT rolled_through FROM job_rollup_state FOR UPDATE`;

/**
 * The rollup's progress and whether any hour is marked dirty, without a lock: a run that finds
 * nothing to do opens no write transaction. One-row table; the dirty table's primary key.
 */
export const ROLLUP_PROGRESS = `
  SELECT (SELECT rolled_through FROM job_rollup_state) AS rolled_through,
         EXISTS (SELECT 1 FROM job_rollup_dirty) AS dirty`;

/** Forget hours [$1, $2) (only those in $3 when it is not null) before rolling them again. */
export const DELETE_ROLLED = `
  DELETE FROM job_outcome_hourly
   WHERE hour >= $1 AND hour < $2 AND ($3::timestamptz[] IS NULL OR hour = ANY($3::timestamptz[]))`;

/**
 * Roll hours [$1, $2) (only those in $3 when it is not null) from scratch: the jobs that
 * finished in them (jobs_finished_at_brin). Idempotent with DELETE_ROLLED before it.
 */
export const ROLL_HOURS = `
  INSERT INTO job_outcome_hourly (hour, ${COLUMNS})
  ${windowRows(`finished_at >= $1 AND finished_at < $2
        AND ($3::timestamptz[] IS NULL OR date_trunc('hour', finished_at, 'UTC') = ANY($3::timestamptz[]))`, true)}`;

/** Every hour before $1 is rolled. */
export const ADVANCE_ROLLUP = `UPDATE job_rollup_state SET rolled_through = $1`;

/** The hours marked dirty so far, taken (deleted) by the run that re-rolls them. */
export const TAKE_DIRTY = `DELETE FROM job_rollup_dirty RETURNING hour`;
