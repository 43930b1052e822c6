/**
 * Reconcile this process's fair-share clocks with the shared ones (FairShareService, once per
 * tick while it queues paced traffic, never per send): add each clock's local advance to
 * max(shared clock, now) and return the result with the database's time. Rows arrive sorted
 * by key, so two replicas reconciling at once lock them in the same order (no deadlock).
 * $1 project[] $2 channel[] $3 priority[] $4 span secs[]. Primary key.
 */
export const RECONCILE_FAIR_CLOCKS = `
  INSERT INTO pacing_fair_clocks AS c (project_id, channel, priority, next_at)
  SELECT u.project_id, u.channel, u.priority, now() + make_interval(secs => u.span)
    FROM unnest($1::text[], $2::text[], $3::int[], $4::float8[]) AS u(project_id, channel, priority, span)
  ON CONFLICT (project_id, channel, priority) DO UPDATE
     SET next_at = GREATEST(c.next_at, now()) + (EXCLUDED.next_at - now())
  RETURNING project_id AS "projectId", channel, priority, next_at AS "nextAt", now() AS "dbNow"`;

/** The shared clocks still ahead of now, read at start-up (a new process joins the queue's virtual time). Sequential scan of a small table. */
export const FUTURE_FAIR_CLOCKS = `
  SELECT project_id AS "projectId", channel, priority, next_at AS "nextAt", now() AS "dbNow"
    FROM pacing_fair_clocks
   WHERE next_at > now()`;
