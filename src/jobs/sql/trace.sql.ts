import { JOB_COLUMNS } from './queries.sql.js';

/*
 * The recipient trace (GET /v1/admin/trace, trace_recipient): the jobs of some addresses or
 * subscribers in a time range, then their attempts and provider evidence in one statement each
 * (bounded per job, below).
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

/*
 * Each job's evidence is bounded on its own: a job retried or rate-limited thousands of times,
 * or opened a thousand times, must not use a shared bound and leave the later jobs with none.
 * Per job id (unnest, one LATERAL probe each) the newest $2 rows are read, in order, and the
 * count of them up to $3, so the answer can say how many older ones it left out (at least that
 * many past the cap: a job with millions of rows costs $3 index entries, not millions). The count
 * is read first, once per job (the LATERAL before the rows, so it is not re-run per row), from
 * the same index.
 */

/**
 * The attempts of these jobs that did not end in a send: each job's newest $2, oldest first, with
 * the job's total; job_attempts_job_idx (job_id, id), read backward.
 *   $1 job ids  $2 attempts per job  $3 the most counted per job
 */
export const TRACE_ATTEMPTS = `
  SELECT j.id AS "jobId", a.at, a.attempt, a.outcome, a.counted, a.provider, a.error, a.next_at AS "nextAt",
         c.total
    FROM unnest($1::uuid[]) AS j(id)
   CROSS JOIN LATERAL (SELECT count(*)::int AS total FROM (SELECT 1 FROM job_attempts WHERE job_id = j.id LIMIT $3) x) c
   CROSS JOIN LATERAL (
          SELECT id, at, attempt, outcome, counted, provider, error, next_at
            FROM job_attempts WHERE job_id = j.id
           ORDER BY id DESC
           LIMIT $2) a
   ORDER BY j.id, a.id`;

/**
 * Provider evidence about these jobs: each job's newest $2 (by receipt), oldest first, with the
 * job's total; provider_events_job_idx (job_id, received_at) WHERE job_id IS NOT NULL, read backward.
 * The per-job read orders by received_at alone, the index's order, so it stops after $2 entries (a
 * tie-break on event_id would sort all of a job's events first); the answer's order has it.
 *   $1 job ids  $2 events per job  $3 the most counted per job
 */
export const TRACE_PROVIDER_EVENTS = `
  SELECT j.id AS "jobId", e.provider, e.provider_event_type AS "providerType", e.event_type AS "kind",
         COALESCE(e.occurred_at, e.received_at) AS "occurredAt", e.provider_message_id AS "providerMessageId",
         e.recipients, e.error, c.total
    FROM unnest($1::uuid[]) AS j(id)
   CROSS JOIN LATERAL (SELECT count(*)::int AS total FROM (SELECT 1 FROM provider_events WHERE job_id = j.id LIMIT $3) x) c
   CROSS JOIN LATERAL (
          SELECT event_id, received_at, occurred_at, provider, provider_event_type, event_type,
                 provider_message_id, recipients, error
            FROM provider_events WHERE job_id = j.id
           ORDER BY received_at DESC
           LIMIT $2) e
   ORDER BY j.id, e.received_at, e.event_id`;
