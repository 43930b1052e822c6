/**
 * The worker heartbeats (worker_heartbeats, migration 79): a handful of rows, one per worker
 * process, read by primary key or in full.
 */

/**
 * One beat of process $1: insert or refresh its row (a HOT update: no index on what changes),
 * and delete rows whose last beat is older than $7 days (stopped or crashed processes),
 * in the same statement. $2 role, $3 host, $4 pid, $5 version, $6 process start.
 */
export const BEAT = `
  WITH pruned AS (
    DELETE FROM worker_heartbeats WHERE last_beat < now() - make_interval(days => $7) AND id <> $1
  )
  INSERT INTO worker_heartbeats (id, role, host, pid, version, started_at, last_beat, stopped_at)
  VALUES ($1, $2, $3, $4, $5, $6, now(), NULL)
  ON CONFLICT (id) DO UPDATE SET last_beat = now(), stopped_at = NULL`;

/** A graceful stop: the process says it is gone instead of letting its beat go stale. */
export const STOPPED = `UPDATE worker_heartbeats SET last_beat = now(), stopped_at = now() WHERE id = $1`;

/**
 * Who is alive: processes not stopped whose last beat is younger than $1 seconds, the newest
 * beat of any process, and whether a job is due and waiting (pending or retry, run_at passed).
 * The due check probes each priority value with a one-row range scan of jobs_claim_idx
 * (priority, run_at), like the claim, so it costs the same behind any backlog.
 */
export const LIVENESS = `
  SELECT (SELECT count(*)::int FROM worker_heartbeats
           WHERE stopped_at IS NULL AND last_beat > now() - make_interval(secs => $1)) AS alive,
         (SELECT max(last_beat) FROM worker_heartbeats) AS last_beat_at,
         EXISTS (SELECT 1 FROM generate_series(0, 100) AS band(priority)
                  CROSS JOIN LATERAL (
                    SELECT 1 FROM jobs
                     WHERE status IN ('pending','retry') AND priority = band.priority AND run_at <= now()
                     LIMIT 1) due) AS due_waiting`;

/**
 * The known worker processes, newest beat first (at most $2), each with whether it counts as
 * alive (not stopped, beat younger than $1 seconds), and on every row the count of alive ones
 * among all rows (the window runs before the LIMIT). The table holds a week of processes.
 */
export const PROCESSES = `
  SELECT id, role, host, pid, version, started_at, last_beat, stopped_at, alive,
         count(*) FILTER (WHERE alive) OVER ()::int AS alive_total
    FROM (SELECT *, (stopped_at IS NULL AND last_beat > now() - make_interval(secs => $1)) AS alive
            FROM worker_heartbeats) w
   ORDER BY last_beat DESC
   LIMIT $2`;
