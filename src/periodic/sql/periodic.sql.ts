/**
 * Claim the tick of task $1 for replica $3 when its last run is at least $2 ms old: one
 * statement, so two replicas never both win a tick. A task seen for the first time is
 * claimed at once ($4 = true) or registered with its first tick one interval away ($4 = false:
 * e.g. a digest notification should not fire on every deploy). Returns a row when this
 * replica won the tick (and must run it).
 */
export const CLAIM_TICK = `
  WITH first AS (
    INSERT INTO periodic_runs (task, last_run_at, run_by, runs)
    VALUES ($1, now(), $3, CASE WHEN $4 THEN 1 ELSE 0 END)
    ON CONFLICT (task) DO NOTHING
    RETURNING $4::boolean AS run
  ),
  next AS (
    UPDATE periodic_runs SET last_run_at = now(), run_by = $3, runs = runs + 1
     WHERE task = $1 AND NOT EXISTS (SELECT 1 FROM first)
       AND last_run_at <= now() - make_interval(secs => $2::float8 / 1000)
    RETURNING true AS run
  )
  SELECT run FROM first WHERE run UNION ALL SELECT run FROM next`;

/** Record how the run this replica claimed ended (read by the tests and by an operator with SQL: `SELECT * FROM periodic_runs`). */
export const FINISH_TICK = `
  UPDATE periodic_runs SET last_ok = $3, last_error = $4, finished_at = now()
   WHERE task = $1 AND run_by = $2`;

/** Every task's last run. A handful of rows. */
export const LIST_RUNS = `
  SELECT task, last_run_at, run_by, runs::int AS runs, last_ok, last_error, finished_at FROM periodic_runs ORDER BY task`;
