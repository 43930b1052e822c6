import { preparedSql } from '../../database/prepared-sql.js';
import { FENCE, V } from './finalise.sql.js';

/**
 * Marks in-app jobs sent and inserts their inbox messages in ONE statement, so neither can
 * exist without the other. Same shape as every finalisation (jobs/sql/finalise.sql.ts): $1 a
 * JSON object keyed by job id ({"a": attempts, "p": provider, "m": message id, "s": subscriber,
 * "ti": title, "b": body, "ic": icon, "u": url, "d": data}), the primary key the only access
 * path. The update is fenced like the others (a stale outcome writes nothing,
 * so inserts nothing); it also requires the subscriber to exist (the connector checked, a
 * concurrent delete could still win — the job then stays processing and the reaper hands it
 * back). `ON CONFLICT (job_id)` makes a replayed write harmless. Served by jobs_pkey,
 * subscribers_pkey and inbox_messages_job_id_key.
 */
export const MARK_SENT_TO_INBOX = preparedSql(
  'notifyd_mark_sent_to_inbox',
  `
  WITH sent AS (
    UPDATE jobs j
       SET status = 'sent', sent_at = now(), finished_at = now(), error = NULL, next_retry_at = NULL,
           provider = ${V} ->> 'p', provider_message_id = ${V} ->> 'm'
     WHERE ${FENCE}
       AND EXISTS (SELECT 1 FROM subscribers s WHERE s.project_id = j.project_id AND s.id = ${V} ->> 's')
    RETURNING j.id, j.project_id, j.topic, ${V} AS v
  )
  INSERT INTO inbox_messages (id, project_id, subscriber_id, job_id, title, body, icon, url, data, topic)
  SELECT (v ->> 'm')::uuid, project_id, v ->> 's', id, v ->> 'ti', v ->> 'b', v ->> 'ic', v ->> 'u', COALESCE(v -> 'd', '{}'::jsonb), topic
    FROM sent
  ON CONFLICT (job_id) DO NOTHING`,
);
