/**
 * Milliseconds until the soonest job that is queued but not yet due (scheduled for later, a
 * retry's backoff, a rate-limit pause), by the database clock; null when there is none. The
 * idle worker sleeps until then instead of a whole poll interval. Like the claim, it probes
 * each priority value with a one-row range scan of jobs_claim_idx (priority, run_at), so its
 * cost does not grow with the number of scheduled jobs.
 */
export const NEXT_DUE_IN_MS = `
  SELECT EXTRACT(EPOCH FROM (min(soonest.run_at) - now())) * 1000 AS "inMs"
    FROM generate_series(0, 100) AS band(priority)
   CROSS JOIN LATERAL (
     SELECT run_at FROM jobs
      WHERE status IN ('pending','retry')
        AND priority = band.priority
        AND run_at > now()
      ORDER BY run_at
      LIMIT 1
   ) soonest`;
