import { projectsHoldingAny } from '../../sql/projects-holding.sql.js';

const PREFERENCE_COLUMNS = `
  project_id AS "projectId", subscriber_id AS "subscriberId", channel, scope_kind AS "scopeKind", scope, enabled,
  updated_at AS "updatedAt"`;

/** One subscriber's preferences; primary key prefix (project_id, subscriber_id). */
export const LIST_FOR_SUBSCRIBER = `
  SELECT ${PREFERENCE_COLUMNS} FROM subscriber_preferences
   WHERE project_id = $1 AND subscriber_id = $2
   ORDER BY channel, scope_kind, scope`;

/** Which of these projects hold any stored preference (the primary key). */
export const PROJECTS_WITH_PREFERENCES = projectsHoldingAny('notifyd_projects_with_preferences', {
  table: 'subscriber_preferences',
  index: ['project_id', 'subscriber_id'],
});

/**
 * The preferences of many subscribers of several projects: the worker's once-per-batch
 * prefetch (one project's subscribers take LIST_FOR_PROJECT_SUBSCRIBERS). One primary-key range per distinct (project, subscriber).
 */
export const LIST_FOR_SUBSCRIBERS = `
  SELECT p.project_id AS "projectId", p.subscriber_id AS "subscriberId", p.channel, p.scope_kind AS "scopeKind",
         p.scope, p.enabled, p.updated_at AS "updatedAt"
    FROM unnest($1::text[], $2::text[]) AS k(project_id, subscriber_id)
    JOIN subscriber_preferences p ON p.project_id = k.project_id AND p.subscriber_id = k.subscriber_id`;

/**
 * The same for subscribers of one project (every /v1/batch call, most worker batches): the
 * project travels once, not as a 5 000-element array, and the ids are one `= ANY` probe of the
 * primary key. Measured over 5 000 ids: 14 → 3.7 ms with 20 000 preference rows in the
 * project, 2.0 → 1.2 ms with none (the join above sorts both sides for a merge join).
 */
export const LIST_FOR_PROJECT_SUBSCRIBERS = `
  SELECT ${PREFERENCE_COLUMNS} FROM subscriber_preferences
   WHERE project_id = $1 AND subscriber_id = ANY($2::text[])`;

/**
 * Writes many rows of one subscriber in one statement (upsert per channel × scope).
 *   $1 project  $2 subscriber  $3 channel[]  $4 scope_kind[]  $5 scope[]  $6 enabled[]
 */
export const UPSERT_PREFERENCES = `
  INSERT INTO subscriber_preferences (project_id, subscriber_id, channel, scope_kind, scope, enabled)
  SELECT $1, $2, r.channel, r.kind, r.scope, r.enabled
    FROM unnest($3::text[], $4::text[], $5::text[], $6::boolean[]) AS r(channel, kind, scope, enabled)
  ON CONFLICT (project_id, subscriber_id, channel, scope_kind, scope)
  DO UPDATE SET enabled = EXCLUDED.enabled, updated_at = now()`;

/** Removes all of one subscriber's preferences (back to "everything allowed"). */
export const DELETE_FOR_SUBSCRIBER = `DELETE FROM subscriber_preferences WHERE project_id = $1 AND subscriber_id = $2`;

/**
 * Opts subscribers out of one topic on one channel (the unsubscribe link's topic choice) and
 * returns only the subscribers whose preference changed: a row already opted out is left as it
 * is (no new updated_at), so a second click writes, audits and announces nothing. Subscribers
 * deleted meanwhile are skipped by the join rather than failing the foreign key. Primary key.
 *   $1 project  $2 subscriber[]  $3 channel  $4 topic
 */
export const OPT_OUT_OF_TOPIC = `
  INSERT INTO subscriber_preferences (project_id, subscriber_id, channel, scope_kind, scope, enabled)
  SELECT s.project_id, s.id, $3, 'topic', $4, false
    FROM subscribers s
   WHERE s.project_id = $1 AND s.id = ANY($2::text[])
  ON CONFLICT (project_id, subscriber_id, channel, scope_kind, scope)
  DO UPDATE SET enabled = false, updated_at = now()
   WHERE subscriber_preferences.enabled
  RETURNING subscriber_id AS "subscriberId"`;
