import { preparedSql } from '../../../database/prepared-sql.js';

const CAP_COLUMNS = `
  id, project_id AS "projectId", channel, topic, max_messages AS "maxMessages",
  window_seconds AS "windowSeconds", created_at AS "createdAt", updated_at AS "updatedAt"`;

/** One project's caps (UNIQUE (project_id, channel, topic) serves it). */
export const LIST_CAPS = preparedSql(
  'notifyd_list_caps',
  `SELECT ${CAP_COLUMNS} FROM recipient_caps WHERE project_id = $1 ORDER BY channel, topic`,
);

/** The caps of several projects, for a claimed batch. */
export const CAPS_OF_PROJECTS = preparedSql(
  'notifyd_caps_of_projects',
  `SELECT ${CAP_COLUMNS} FROM recipient_caps WHERE project_id = ANY($1::text[])`,
);

/** Creates or replaces the cap of a (channel, topic) pair. */
export const UPSERT_CAP = `
  INSERT INTO recipient_caps (project_id, channel, topic, max_messages, window_seconds)
  VALUES ($1, $2, $3, $4, $5)
  ON CONFLICT (project_id, channel, topic)
  DO UPDATE SET max_messages = EXCLUDED.max_messages, window_seconds = EXCLUDED.window_seconds, updated_at = now()
  RETURNING ${CAP_COLUMNS}, (xmax = 0) AS created`;

export const DELETE_CAP = `DELETE FROM recipient_caps WHERE project_id = $1 AND id = $2 RETURNING id`;

/**
 * How many sends each (project, subscriber) pair in $1/$2 has within each of its project's caps,
 * leaving out the jobs in $3 (a job claimed again after a retry does not count itself).
 * One probe of recipient_cap_sends_subscriber_idx per pair and cap.
 */
export const COUNT_USAGE = `
  SELECT c.id AS "capId", k.subscriber_id AS "subscriberId", count(s.job_id)::int AS used
    FROM (SELECT DISTINCT * FROM unnest($1::text[], $2::text[])) AS k(project_id, subscriber_id)
    JOIN recipient_caps c ON c.project_id = k.project_id
    LEFT JOIN recipient_cap_sends s
           ON s.project_id = k.project_id AND s.subscriber_id = k.subscriber_id
          AND s.sent_at > now() - make_interval(secs => c.window_seconds)
          AND (c.channel = '*' OR s.channel = c.channel)
          AND (c.topic = '*' OR s.topic = c.topic)
          AND s.job_id <> ALL($3::uuid[])
   GROUP BY c.id, k.subscriber_id`;

/**
 * Serialises cap checks per subscriber across workers for the rest of the transaction. Keys
 * ($1, 'project/subscriber') come sorted, and are locked in that order, so two batches
 * sharing subscribers cannot deadlock.
 */
export const LOCK_SUBSCRIBERS = `
  SELECT count(pg_advisory_xact_lock(hashtextextended('recipient-cap:' || k.key, 0)))::int AS locked
    FROM (SELECT key FROM unnest($1::text[]) WITH ORDINALITY AS u(key, ord) ORDER BY ord) AS k`;

/** Records the jobs let through (a job seen again, e.g. after a retry, keeps one row). */
export const RECORD_SENDS = `
  INSERT INTO recipient_cap_sends (job_id, project_id, subscriber_id, channel, topic)
  SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::text[])
  ON CONFLICT (job_id) DO UPDATE SET sent_at = now()`;

/** Drops ledger rows older than the longest allowed window (31 days), a slice at a time. */
export const PURGE_OLD_SENDS = `
  DELETE FROM recipient_cap_sends
   WHERE job_id = ANY(ARRAY(SELECT job_id FROM recipient_cap_sends WHERE sent_at < now() - interval '32 days' LIMIT $1))`;
