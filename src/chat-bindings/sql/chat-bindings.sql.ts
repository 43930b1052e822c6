import { preparedSql } from '../../database/prepared-sql.js';

/**
 * Replace a project's bindings on one channel by the chats in $3, in one statement: the ones no
 * longer listed go, the new ones come, the kept ones keep their created_at. Primary key.
 */
export const REPLACE_CHAT_BINDINGS = `
  WITH gone AS (
    DELETE FROM chat_bindings
     WHERE project_id = $1 AND channel = $2 AND NOT (chat = ANY($3::text[])))
  INSERT INTO chat_bindings (project_id, channel, chat)
  SELECT $1, $2, chat FROM unnest($3::text[]) AS chat
  ON CONFLICT DO NOTHING`;

/** A project's bindings, by channel and chat. Primary key prefix. */
export const LIST_CHAT_BINDINGS = `
  SELECT channel, chat, created_at AS "createdAt" FROM chat_bindings
   WHERE project_id = $1 ORDER BY channel, chat`;

/** A project's bindings on one channel. Primary key prefix. */
export const LIST_CHANNEL_BINDINGS = `SELECT chat FROM chat_bindings WHERE project_id = $1 AND channel = $2 ORDER BY chat`;

/** Remove a project's bindings on one channel; returns the chats removed. Primary key prefix. */
export const DELETE_CHANNEL_BINDINGS = `DELETE FROM chat_bindings WHERE project_id = $1 AND channel = $2 RETURNING chat`;

/**
 * Which of these (project, channel, chat) triples are bound: at enqueue (one project) and once
 * per claimed batch (its chat jobs). One primary-key probe per distinct triple.
 */
export const BOUND_AMONG = preparedSql(
  'notifyd_chat_bindings_bound_among',
  `SELECT b.project_id AS "projectId", b.channel, b.chat
     FROM unnest($1::text[], $2::text[], $3::text[]) AS t(project_id, channel, chat)
     JOIN chat_bindings b ON b.project_id = t.project_id AND b.channel = t.channel AND b.chat = t.chat`,
);
