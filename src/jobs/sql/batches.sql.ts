/**
 * Campaign status: the batches table (one row per POST /v1/batch call) and the counts of the
 * jobs that carry a batch id (jobs.batch_id, served by jobs_batch_idx (batch_id, status)).
 */

/** A batch call starts: its row, before any job is queued, so its status is readable at once. */
export const INSERT_BATCH = `
  INSERT INTO batches (id, project_id, channels, tags, topic, priority, scheduled_at, segment)
  VALUES ($1, $2, $3::text[], $4::jsonb, $5, $6, $7, $8::jsonb)`;

/**
 * A page (or the whole call) is queued: adds its counts. jsonb has no "add per key", so the
 * page's reasons are merged with the stored ones key by key. $6 completes the batch.
 */
export const ADD_BATCH_PAGE = `
  UPDATE batches b
     SET subscribers = b.subscribers + $2,
         jobs_created = b.jobs_created + $3,
         jobs_deduplicated = b.jobs_deduplicated + $4,
         topic = COALESCE(b.topic, $7),
         skipped_by_reason = (
           SELECT COALESCE(jsonb_object_agg(k, v), '{}'::jsonb) FROM (
             SELECT k, sum(v::int) AS v
               FROM (SELECT * FROM jsonb_each_text(b.skipped_by_reason) UNION ALL SELECT * FROM jsonb_each_text($5::jsonb)) AS e(k, v)
              GROUP BY k) AS s),
         completed_at = CASE WHEN $6 THEN now() ELSE b.completed_at END
   WHERE b.id = $1`;

/** A batch of a project (null project = any, for operators). */
export const FIND_BATCH = `
  SELECT id, project_id AS "projectId", created_at AS "createdAt", completed_at AS "completedAt",
         channels, tags, topic, priority, scheduled_at AS "scheduledAt", segment, subscribers,
         jobs_created AS "jobsCreated", jobs_deduplicated AS "jobsDeduplicated",
         skipped_by_reason AS "skippedByReason"
    FROM batches
   WHERE id = $1 AND ($2::text IS NULL OR project_id = $2)`;

/** The batch's jobs by status now (jobs_batch_idx: an index-only scan where pages are all-visible). */
export const COUNT_BATCH_JOBS = `
  SELECT status, count(*)::int AS count FROM jobs WHERE batch_id = $1 GROUP BY status`;

/**
 * Retention: batches created before $1 none of whose jobs is left (the jobs' purge removed
 * them, or none was queued), at most $2 per statement.
 */
export const PURGE_EMPTY_BATCHES = `
  DELETE FROM batches b
   WHERE b.id = ANY(ARRAY(
     SELECT id FROM batches x
      WHERE x.created_at < $1
        AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.batch_id = x.id)
      LIMIT $2))`;

/** A batch call that ends without queueing anything, or a segment read to its end: its row completes. */
export const COMPLETE_BATCH = `UPDATE batches SET completed_at = now() WHERE id = $1`;

/** A batch call refused before it queued a job: no batch to show. */
export const DELETE_BATCH = `DELETE FROM batches WHERE id = $1`;
