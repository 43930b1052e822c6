/*
 * The inbox of one subscriber ($1 project, $2 subscriber in every statement). A message that is
 * snoozed until later is hidden from lists and counts until then.
 */

const VISIBLE_NOW = `(snoozed_until IS NULL OR snoozed_until <= now())`;

export const MESSAGE_COLUMNS = `
  id, title, body, icon, url, data, topic, read_at AS "readAt", seen_at AS "seenAt", archived_at AS "archivedAt",
  is_todo AS "isTodo", snoozed_until AS "snoozedUntil", created_at AS "createdAt", created_at::text AS "createdKey"`;

/**
 * A page of the inbox, newest first, every filter in SQL, keyset after ($8, $9).
 * $3 archived: 'exclude' | 'only' | 'include'; $4 status: null | unread | read | unseen | todo;
 * $5 topic; $6 ILIKE pattern on title/body; $7 snoozed: true = only messages snoozed now.
 * inbox_messages_subscriber_idx (project, subscriber, created_at DESC) WHERE archived_at IS NULL
 * serves the default (unarchived) list.
 */
export const LIST_MESSAGES = `
  SELECT ${MESSAGE_COLUMNS} FROM inbox_messages
   WHERE project_id = $1 AND subscriber_id = $2
     AND CASE $3::text WHEN 'exclude' THEN archived_at IS NULL WHEN 'only' THEN archived_at IS NOT NULL ELSE true END
     AND CASE $4::text WHEN 'unread' THEN read_at IS NULL WHEN 'read' THEN read_at IS NOT NULL
                       WHEN 'unseen' THEN seen_at IS NULL WHEN 'todo' THEN is_todo ELSE true END
     AND ($5::text IS NULL OR topic = $5)
     AND ($6::text IS NULL OR title ILIKE $6 OR body ILIKE $6)
     AND CASE WHEN $7::boolean THEN snoozed_until > now() ELSE ${VISIBLE_NOW} END
     AND ($8::timestamptz IS NULL OR (created_at, id) < ($8::timestamptz, $9::uuid))
   ORDER BY created_at DESC, id DESC
   LIMIT $10 OFFSET $11`;

/** Unread and unseen badges over visible, unarchived messages; inbox_messages_subscriber_idx. */
export const COUNTS = `
  SELECT count(*) FILTER (WHERE read_at IS NULL)::int AS unread,
         count(*) FILTER (WHERE seen_at IS NULL)::int AS unseen,
         count(*)::int AS total
    FROM inbox_messages
   WHERE project_id = $1 AND subscriber_id = $2 AND archived_at IS NULL AND ${VISIBLE_NOW}`;

/** Takes the subscriber's next event ids ($3 of them) under the stream row's lock. */
const BUMP = (count: string, from: string) => `
  INSERT INTO inbox_streams AS s (project_id, subscriber_id, last_event_id)
  SELECT $1, $2, ${count} FROM ${from}
  ON CONFLICT (project_id, subscriber_id) DO UPDATE SET last_event_id = s.last_event_id + EXCLUDED.last_event_id
  RETURNING s.last_event_id`;

/**
 * Changes one message and appends its `message.updated` event, in one statement. Null leaves a
 * field as it is. Reading implies seeing; archiving and snoozing keep read state.
 * $3 id $4 read $5 seen $6 archived $7 is_todo $8 snooze given? $9 snoozed_until
 */
export const UPDATE_MESSAGE = `
  WITH m AS (
    UPDATE inbox_messages SET
      read_at = CASE WHEN $4::boolean IS NULL THEN read_at WHEN $4 THEN COALESCE(read_at, now()) END,
      seen_at = CASE WHEN $4::boolean IS TRUE OR $5::boolean IS TRUE THEN COALESCE(seen_at, now())
                     WHEN $5::boolean IS FALSE THEN NULL ELSE seen_at END,
      archived_at = CASE WHEN $6::boolean IS NULL THEN archived_at WHEN $6 THEN COALESCE(archived_at, now()) END,
      is_todo = COALESCE($7::boolean, is_todo),
      snoozed_until = CASE WHEN $8::boolean THEN $9::timestamptz ELSE snoozed_until END
     WHERE project_id = $1 AND subscriber_id = $2 AND id = $3
    RETURNING *
  ), bumped AS (${BUMP('1', 'm')}
  ), ev AS (
    INSERT INTO inbox_events (project_id, subscriber_id, id, type, data)
    SELECT $1, $2, b.last_event_id, 'message.updated', jsonb_build_object('message', inbox_message_json(m.*))
      FROM m, bumped b
  )
  SELECT ${MESSAGE_COLUMNS} FROM m`;

/** Each bulk action and the messages it changes ($3 topic or null): what the subscriber sees now (not snoozed ones). */
const BULK = {
  read: {
    set: `read_at = now(), seen_at = COALESCE(seen_at, now())`,
    where: `read_at IS NULL AND archived_at IS NULL AND ${VISIBLE_NOW}`,
  },
  seen: { set: `seen_at = now()`, where: `seen_at IS NULL AND archived_at IS NULL AND ${VISIBLE_NOW}` },
  archived: { set: `archived_at = now()`, where: `archived_at IS NULL AND ${VISIBLE_NOW}` },
} as const;
export type BulkAction = keyof typeof BULK;

/**
 * Marks every matching message of the subscriber (read, seen or archived) and appends ONE
 * `messages.<action>` event with the count, in one statement; nothing changed, no event.
 */
export function bulkUpdate(action: BulkAction): string {
  return `
  WITH m AS (
    UPDATE inbox_messages SET ${BULK[action].set}
     WHERE project_id = $1 AND subscriber_id = $2 AND ${BULK[action].where} AND ($3::text IS NULL OR topic = $3)
    RETURNING id
  ), c AS (SELECT count(*)::int AS n FROM m
  ), bumped AS (${BUMP('1', 'c WHERE c.n > 0')}
  ), ev AS (
    INSERT INTO inbox_events (project_id, subscriber_id, id, type, data)
    SELECT $1, $2, b.last_event_id, 'messages.${action}', jsonb_build_object('count', c.n, 'topic', $3::text)
      FROM bumped b, c
  )
  SELECT n FROM c`;
}

/**
 * Snoozes that ended: clears them and appends a `message.updated` per message, numbered per
 * subscriber like the insert trigger does. Bounded by $1; inbox_messages_snoozed_idx.
 * Returns the subscribers whose inbox changed.
 */
export const WAKE_SNOOZED = `
  WITH m AS (
    UPDATE inbox_messages SET snoozed_until = NULL
     WHERE id = ANY(ARRAY(SELECT id FROM inbox_messages WHERE snoozed_until <= now() ORDER BY snoozed_until LIMIT $1 FOR UPDATE SKIP LOCKED))
    RETURNING *
  ), per AS (
    SELECT project_id, subscriber_id, count(*)::bigint AS n FROM m GROUP BY 1, 2 ORDER BY 1, 2
  ), bumped AS (
    INSERT INTO inbox_streams AS s (project_id, subscriber_id, last_event_id)
    SELECT project_id, subscriber_id, n FROM per ORDER BY project_id, subscriber_id
    ON CONFLICT (project_id, subscriber_id) DO UPDATE SET last_event_id = s.last_event_id + EXCLUDED.last_event_id
    RETURNING s.project_id, s.subscriber_id, s.last_event_id
  ), ev AS (
    INSERT INTO inbox_events (project_id, subscriber_id, id, type, data)
    SELECT m.project_id, m.subscriber_id,
           b.last_event_id - count(*) OVER w + row_number() OVER (w ORDER BY m.created_at, m.id),
           'message.updated', jsonb_build_object('message', inbox_message_json(m.*))
      FROM m JOIN bumped b ON b.project_id = m.project_id AND b.subscriber_id = m.subscriber_id
    WINDOW w AS (PARTITION BY m.project_id, m.subscriber_id)
  )
  SELECT project_id AS "projectId", subscriber_id AS "subscriberId" FROM per`;

/** Whether the in-app messages of some jobs were read (workflow condition inbox.is_read); job_id unique index. */
export const READ_BY_JOBS = `
  SELECT bool_or(read_at IS NOT NULL) AS read, count(*)::int AS found
    FROM inbox_messages WHERE project_id = $1 AND job_id = ANY($2::uuid[])`;
