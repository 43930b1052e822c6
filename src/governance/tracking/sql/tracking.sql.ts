/** Each project's `settings.tracking` (projects primary key). */
export const PROJECT_TRACKING = `SELECT id, settings -> 'tracking' AS tracking FROM projects WHERE id = ANY($1::text[])`;

/**
 * Records an open or a click once per job: the first stamps jobs.opened_at / clicked_at and is
 * the one event in provider_events (provider 'notifyd'). Later hits match no row and write
 * nothing: the links are public and replayable by anyone holding the email, so a row per hit
 * would let one email grow the table without bound. Concurrent first hits queue on the job's
 * row lock; the second re-checks the stamp and stops.
 * $1 job, $2 project, $3 'opened' | 'clicked', $4 event id, $5 payload (the link's host only).
 */
export const RECORD_ENGAGEMENT = `
  WITH job AS (
    UPDATE jobs
       SET opened_at  = CASE WHEN $3 = 'opened'  THEN now() ELSE opened_at END,
           clicked_at = CASE WHEN $3 = 'clicked' THEN now() ELSE clicked_at END
     WHERE id = $1 AND project_id = $2
       AND CASE WHEN $3 = 'opened' THEN opened_at IS NULL ELSE clicked_at IS NULL END
    RETURNING id, provider_message_id
  )
  INSERT INTO provider_events (provider, event_id, project_id, job_id, event_type, provider_event_type, provider_message_id, occurred_at, payload)
  SELECT 'notifyd', $4, $2, job.id, $3, 'email.' || $3, job.provider_message_id, now(), $5::jsonb FROM job
  ON CONFLICT DO NOTHING`;
