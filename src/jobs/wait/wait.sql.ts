import { preparedSql } from '../../database/prepared-sql.js';

/**
 * Registers waiters for jobs ($1 ids) for $2 seconds; a job already awaited keeps the later
 * deadline. Primary key job_waiters_pkey; the table is UNLOGGED (no WAL, no commit flush).
 */
export const REGISTER_WAITERS = `
  INSERT INTO job_waiters (job_id, until)
  SELECT id, now() + make_interval(secs => $2) FROM unnest($1::uuid[]) AS w(id)
  ON CONFLICT (job_id) DO UPDATE SET until = GREATEST(job_waiters.until, EXCLUDED.until)`;

/**
 * After the worker wrote final outcomes for $1 ids: takes their registrations away and returns
 * the jobs somebody still waits for, which get a `job.end` signal. One statement per finalised
 * batch, served by job_waiters_pkey; nothing to find (nobody waits) is the common case.
 */
export const TAKE_WAITED_JOBS = `
  WITH ended AS (DELETE FROM job_waiters WHERE job_id = ANY($1::uuid[]) RETURNING job_id, until)
  SELECT job_id AS "jobId" FROM ended WHERE until > now()`;

/**
 * Whether anybody still waits for any job: asked before TAKE_WAITED_JOBS, which carries the
 * ids of a whole finalised batch (1 000 uuids parsed at bind) to find nothing in the common
 * case. Asked after the outcomes are written, like the take itself, so the protocol of
 * JobWaiter holds: a registration this read does not see committed after it, and its waiter's
 * first read then sees the outcome. A sequential scan of job_waiters: live registrations, plus
 * expired ones until PURGE_EXPIRED_WAITERS (up to two minutes), a few pages in practice.
 */
export const ANYONE_WAITING = preparedSql(
  'notifyd_anyone_waiting',
  `SELECT EXISTS (SELECT 1 FROM job_waiters WHERE until > now()) AS waiting`,
);

/** Registrations whose waiter gave up and whose job has not ended since (or never will). */
export const PURGE_EXPIRED_WAITERS = `DELETE FROM job_waiters WHERE until < now() - interval '1 minute'`;

/** The outcome fields of some jobs of one project ($2), for `wait` answers (primary key lookups). */
export const FIND_OUTCOMES = `
  SELECT id, channel, status, attempts, provider, provider_message_id AS "providerMessageId", error,
         sent_at AS "sentAt", next_retry_at AS "nextRetryAt", run_at AS "runAt"
    FROM jobs
   WHERE id = ANY($1::uuid[]) AND project_id = $2`;
