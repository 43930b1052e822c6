/** Each project's `settings.tracking` (projects primary key). */
export const PROJECT_TRACKING = `SELECT id, settings -> 'tracking' AS tracking FROM projects WHERE id = ANY($1::text[])`;

/**
 * Records an open or a click once per job: the first stamps jobs.opened_at / clicked_at
 * (COALESCE keeps the first), and each is an event in provider_events (provider 'notifyd').
 * $1 job, $2 project, $3 'opened' | 'clicked', $4 event id, $5 payload (the link's host only).
 */
export const RECORD_ENGAGEMENT = `
  WITH job AS (
    UPDATE jobs
       SET opened_at  = CASE WHEN $3 = 'opened'  THEN COALESCE(opened_at, now())  ELSE opened_at END,
           clicked_at = CASE WHEN $3 = 'clicked' THEN COALESCE(clicked_at, now()) ELSE clicked_at END
     WHERE id = $1 AND project_id = $2
    RETURNING id, provider_message_id
  )
  INSERT INTO provider_events (provider, event_id, project_id, job_id, event_type, provider_event_type, provider_message_id, occurred_at, payload)
  SELECT 'notifyd', $4, $2, job.id, $3, 'email.' || $3, job.provider_message_id, now(), $5::jsonb FROM job
  ON CONFLICT DO NOTHING`;
