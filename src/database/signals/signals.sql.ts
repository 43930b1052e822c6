import { preparedSql } from '../prepared-sql.js';
import { SIGNAL_CHANNEL } from './signal-message.js';

/**
 * One flush of the signal buffer, as one statement (its own short transaction, so the
 * notifications go out when it commits and only its commit takes the NOTIFY queue lock).
 *   $1 text[]  messages whose transaction notifyd committed itself: send
 *   $2 xid8[]  $3 text[]  messages of transactions notifyd does not commit (seed 003):
 *              pg_xact_status decides: committed → send, in progress → hand back, aborted → drop.
 * Each status is read exactly once, in one MATERIALIZED CTE: reading it twice (once to send,
 * once to hand back) loses a message whose transaction commits between the two reads. A null
 * status (a transaction too old for the commit log) is sent: a needless wake-up costs less
 * than a missed one. UNION sends each distinct message once. No table is touched.
 */
export const FLUSH_SIGNALS = preparedSql(
  'notifyd_flush_signals',
  `
  WITH foreign_tx AS MATERIALIZED (
    SELECT f.xid, f.message, pg_xact_status(f.xid) AS status
      FROM unnest($2::xid8[], $3::text[]) AS f(xid, message)
  ), sent AS MATERIALIZED (
    SELECT count(pg_notify('${SIGNAL_CHANNEL}', m.message))::int AS n
      FROM (SELECT message FROM unnest($1::text[]) AS own(message)
            UNION
            SELECT message FROM foreign_tx WHERE status IS NULL OR status = 'committed') m
  )
  SELECT sent.n AS sent,
         (SELECT count(*) FROM foreign_tx WHERE status = 'aborted')::int AS aborted,
         kept.xids AS "keptXids", kept.messages AS "keptMessages"
    FROM sent,
         (SELECT coalesce(array_agg(xid::text), '{}') AS xids, coalesce(array_agg(message), '{}') AS messages
            FROM foreign_tx WHERE status = 'in progress') kept`,
);

/** The id of the caller's current transaction (assigning one if it has none yet). */
export const CURRENT_XACT_ID = `SELECT pg_current_xact_id()::text AS xid`;

/** Heartbeat of the listening connection: a round trip that also proves the LISTEN is still registered. */
export const LISTENER_HEARTBEAT = `SELECT '${SIGNAL_CHANNEL}' = ANY (ARRAY(SELECT pg_listening_channels())) AS listening`;
