import { JOB_COLUMNS } from './queries.sql.js';

/*
 * The recipient trace (GET /v1/admin/trace, trace_recipient): the jobs of some addresses or
 * subscribers in a time range, then their attempts and provider evidence in one statement each.
 */

/**
 * Jobs of some addresses (case-insensitive) or subscriber ids, in [since, until), newest first.
 * jobs has no recipient index (every index costs each insert and both updates of a job), so
 * the BRIN index on created_at bounds the read to the range's pages and the rest is a filter:
 * the range is capped (31 days) for that reason.
 *   $1 project|null  $2 lower-cased addresses  $3 subscriber ids  $4 since  $5 until  $6 limit
 */
export const TRACE_JOBS = `
  SELECT ${JOB_COLUMNS} FROM jobs
   WHERE created_at >= $4 AND created_at < $5
     AND ($1::text IS NULL OR project_id = $1)
     AND (lower(recipient) = ANY($2::text[]) OR subscriber_id = ANY($3::text[]))
   ORDER BY created_at DESC, id DESC
   LIMIT $6`;

/** The attempts of these jobs that did not end in a send, oldest first per job; job_attempts_job_idx. */
export const TRACE_ATTEMPTS = `
  SELECT job_id AS "jobId", at, attempt, outcome, counted, provider, error, next_at AS "nextAt"
    FROM job_attempts WHERE job_id = ANY($1::uuid[])
   ORDER BY job_id, id
   LIMIT 2000`;

/** Provider evidence about these jobs, oldest first per job; provider_events_job_idx. */
export const TRACE_PROVIDER_EVENTS = `
  SELECT job_id AS "jobId", provider, provider_event_type AS "providerType", event_type AS "kind",
         COALESCE(occurred_at, received_at) AS "occurredAt", provider_message_id AS "providerMessageId", recipients, error
    FROM provider_events WHERE job_id = ANY($1::uuid[])
   ORDER BY job_id, received_at, event_id
   LIMIT 2000`;
