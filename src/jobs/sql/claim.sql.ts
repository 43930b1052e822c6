import { preparedSql } from '../../database/prepared-sql.js';

/** The columns a worker needs from a claimed job (ClaimedJob: no due times, nothing unused). */
export const CLAIMED_COLUMNS = `
  j.id, j.project_id AS "projectId", j.channel, j.subscriber_id AS "subscriberId", j.recipient,
  j.template_id AS "templateId", j.topic, j.payload, j.priority, j.attempts,
  j.max_attempts AS "maxAttempts", j.idempotency_key AS "idempotencyKey"`;

/**
 * Claim up to $1 due jobs, most urgent first, skipping rows other workers hold and lanes
 * that are paused (channels $2, project lanes $3 as 'project/channel'), and mark them
 * processing in the same statement (one transaction).
 *
 * Why the generate_series: ordering by (priority, run_at) over "run_at <= now()" is not a
 * range of jobs_claim_idx (priority, run_at), so a plain ORDER BY … LIMIT either walks every
 * future-scheduled entry of the higher priorities or sorts the whole due backlog. Probing each
 * priority value (0–100) is one bounded range scan each: cost stays flat whether 500 000 jobs
 * are due or 1 000 000 are scheduled for tomorrow. The nested loop yields rows in priority
 * order and the outer LIMIT stops it early; FOR UPDATE SKIP LOCKED locks only rows returned.
 *
 * The UPDATE finds the picked rows by their physical address, `ctid = ANY(ARRAY(…))`: a TID
 * scan reads each row's page directly, where `id = ANY` paid a primary-key descent per row
 * (joined to the CTE instead, the planner hashes a sequential scan of the whole table). The
 * addresses cannot go stale in between: the rows are locked by this statement, so nobody else
 * can move them. A row another transaction updated after this statement's snapshot but before
 * the lock is locked at its newer version, which the UPDATE's snapshot does not see: it is
 * left pending (never half-claimed) and a later claim takes it.
 */
export const CLAIM_JOBS = preparedSql(
  'notifyd_claim_jobs',
  `
  WITH picked AS MATERIALIZED (
    SELECT due.ctid
      FROM generate_series(0, 100) AS band(priority)
     CROSS JOIN LATERAL (
       SELECT ctid FROM jobs
        WHERE status IN ('pending','retry')
          AND priority = band.priority
          AND run_at <= now()
          AND channel <> ALL($2::text[])
          AND (cardinality($3::text[]) = 0 OR project_id || '/' || channel <> ALL($3::text[]))
        ORDER BY run_at
        LIMIT $1
        FOR UPDATE SKIP LOCKED
     ) due
     LIMIT $1
  )
  UPDATE jobs j
     SET status = 'processing', attempts = j.attempts + 1, claimed_at = now()
   WHERE j.ctid = ANY(ARRAY(SELECT ctid FROM picked))
  RETURNING ${CLAIMED_COLUMNS}`,
);
