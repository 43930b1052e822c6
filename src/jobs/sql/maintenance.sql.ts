/**
 * The reaper: jobs processing for longer than the lease ($1 seconds) are presumed lost with
 * their worker. They go back to the queue due now, their attempt still counted, so a job
 * that kills its worker every time ends failed instead of looping. Bounded per run ($2);
 * served by jobs_processing_idx.
 */
export const REAP_EXPIRED_LEASES = `
  WITH expired AS (
    SELECT id FROM jobs
     WHERE status = 'processing' AND claimed_at < now() - make_interval(secs => $1)
     ORDER BY claimed_at
     LIMIT $2
     FOR UPDATE SKIP LOCKED
  )
  UPDATE jobs j
     SET status = CASE WHEN j.attempts >= j.max_attempts THEN 'failed' ELSE 'retry' END,
         finished_at = CASE WHEN j.attempts >= j.max_attempts THEN now() END,
         run_at = now(),
         next_retry_at = CASE WHEN j.attempts >= j.max_attempts THEN NULL ELSE now() END,
         claimed_at = NULL,
         error = concat_ws(' ', j.error, '[requeued: the worker lost the job while processing]')
   WHERE j.id = ANY(ARRAY(SELECT id FROM expired))
  RETURNING j.id, j.status`;

/**
 * Retention: delete finished jobs past their retention, at most $3 per statement so that a
 * large purge never holds locks or bloats WAL in one go. $1 cutoff for sent/cancelled/bounced,
 * $2 cutoff for failed (null keeps them). The BRIN index on created_at narrows the scan to
 * old pages (a job finishes after it is created, so created_at < cutoff is implied).
 */
export const PURGE_FINISHED = `
  WITH doomed AS (
    SELECT id FROM jobs
     WHERE created_at < GREATEST($1::timestamptz, COALESCE($2::timestamptz, '-infinity'))
       AND (   (status IN ('sent','cancelled','bounced') AND finished_at < $1)
            OR (status = 'failed' AND finished_at < $2))
     LIMIT $3
  )
  DELETE FROM jobs WHERE id = ANY(ARRAY(SELECT id FROM doomed))`;
