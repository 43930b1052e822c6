/** The newest event id of a subscriber's stream (0 before any event); primary key. */
export const STREAM_HEAD = `
  SELECT COALESCE((SELECT last_event_id FROM inbox_streams WHERE project_id = $1 AND subscriber_id = $2), 0)::text AS head`;

/** Events after $3, oldest first, at most $4: the replay and every live read; primary key range. */
export const EVENTS_AFTER = `
  SELECT id::text AS id, type, data FROM inbox_events
   WHERE project_id = $1 AND subscriber_id = $2 AND id > $3::bigint
   ORDER BY id LIMIT $4`;

/**
 * Stores a ticket's hash (never the ticket), the token generation it was issued under and the
 * expiry of the token it was minted from ($7; NULL for a project key). The ticket expires after
 * $4 seconds or with that token, whichever comes first (LEAST ignores a NULL).
 */
export const INSERT_TICKET = `
  INSERT INTO inbox_stream_tickets (ticket_hash, project_id, subscriber_id, expires_at, token_epoch, token_version, token_expires_at)
  VALUES ($1, $2, $3, LEAST(now() + make_interval(secs => $4), $7::timestamptz), $5::bigint, $6::bigint, $7::timestamptz)`;

/** Uses a ticket: deleted as it is read, so a second use finds nothing (single use, any replica). */
export const CONSUME_TICKET = `
  DELETE FROM inbox_stream_tickets WHERE ticket_hash = $1 AND expires_at > now()
  RETURNING project_id AS "projectId", subscriber_id AS "subscriberId",
            COALESCE(token_epoch, 0)::text AS epoch, COALESCE(token_version, 0)::text AS version,
            token_expires_at AS "tokenExpiresAt"`;

/** Housekeeping: expired tickets and events past retention ($1 hours), bounded by $2 each. */
export const PURGE_TICKETS = `DELETE FROM inbox_stream_tickets WHERE expires_at <= now()`;
export const PURGE_EVENTS = `
  DELETE FROM inbox_events WHERE ctid = ANY(ARRAY(
    SELECT ctid FROM inbox_events WHERE created_at < now() - make_interval(hours => $1) LIMIT $2))`;
