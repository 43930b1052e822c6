import { preparedSql } from '../../../database/prepared-sql.js';

/** The stored send window of each project in $1 (projects primary key). */
export const PROJECT_WINDOWS = preparedSql(
  'notifyd_project_windows',
  `
  SELECT id, settings -> 'send_window' AS "window" FROM projects WHERE id = ANY($1::text[])`,
);

/**
 * The time zone of each (project, subscriber) pair in $1/$2 that has one: a primary-key probe
 * per pair (subscribers_pkey).
 */
export const SUBSCRIBER_TIMEZONES = `
  SELECT s.project_id AS "projectId", s.id, s.timezone
    FROM unnest($1::text[], $2::text[]) AS k(project_id, id)
    JOIN subscribers s ON s.project_id = k.project_id AND s.id = k.id
   WHERE s.timezone IS NOT NULL`;

/** Sets (a window object) or clears (null) a project's window, keeping its other settings. */
export const SET_PROJECT_WINDOW = `
  UPDATE projects
     SET settings = CASE WHEN $2::jsonb IS NULL THEN settings - 'send_window'
                         ELSE jsonb_set(settings, '{send_window}', $2::jsonb) END,
         updated_at = now()
   WHERE id = $1
  RETURNING settings -> 'send_window' AS "window"`;
