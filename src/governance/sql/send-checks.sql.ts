import { type PreparedSql, preparedSql } from '../../database/prepared-sql.js';

/**
 * Everything /v1/send reads before queueing, in one round trip instead of three (issue 9):
 *   suppressions  the active suppressions of its targets (as SuppressionsRepository's
 *                 ACTIVE_FOR_KEYS: suppressions' unique key)
 *   preferences   the stored preferences of one subscriber (as LIST_FOR_SUBSCRIBERS:
 *                 subscriber_preferences' key), read only for a subscriber's non-transactional send
 *   caps          the project's per-recipient caps (as LIST_CAPS: recipient_caps' key), read only
 *                 when the send has a subscriber
 * each as a jsonb array of rows shaped like those statements' rows.
 *
 * Why variants and not one text with flags: the statement runs prepared, and PostgreSQL keeps a
 * generic plan only when it costs no more than the custom plans. With `$4 IS NOT NULL` or a
 * boolean flag in the text, or keys as arrays for unnest (whose length a generic plan cannot
 * know), every custom plan was cheaper and the statement was planned again on every send
 * (0.25 ms of server CPU each, measured with pg_stat_statements.track_planning). Each variant
 * below takes only the parameters it reads, so its generic plan is its custom plan.
 *   $1 project; then, one key: $2 channel $3 lookup address; several keys: $2 channel[] $3 address[];
 *   then $4 the subscriber whose preferences are read (when read).
 */
export function sendChecksSql(oneKey: boolean, withPreferences: boolean, withCaps: boolean): PreparedSql {
  const name = `notifyd_send_checks_${oneKey ? 'one' : 'many'}${withPreferences ? '_prefs' : ''}${withCaps ? '_caps' : ''}`;
  let statement = VARIANTS.get(name);
  if (!statement) {
    statement = preparedSql(
      name,
      `
  SELECT
    (SELECT coalesce(jsonb_agg(jsonb_build_object(
              'projectId', s.project_id, 'channel', s.channel, 'address', s.address,
              'scope', s.scope, 'reason', s.reason, 'id', s.id)), '[]'::jsonb)
       ${oneKey ? ONE_KEY : MANY_KEYS}
    ) AS suppressions,
    ${withPreferences ? PREFERENCES : `'[]'::jsonb`} AS preferences,
    ${withCaps ? CAPS : `'[]'::jsonb`} AS caps`,
    );
    VARIANTS.set(name, statement);
  }
  return statement;
}

/** The variants made so far (at most eight), each made once: preparedSql hashes its text. */
const VARIANTS = new Map<string, PreparedSql>();

const ONE_KEY = `FROM suppressions s
      WHERE s.project_id = $1 AND s.channel = $2 AND s.address = $3 AND s.released_at IS NULL`;

const MANY_KEYS = `FROM unnest($2::text[], $3::text[]) AS k(channel, address)
       JOIN suppressions s
         ON s.project_id = $1 AND s.channel = k.channel AND s.address = k.address AND s.released_at IS NULL`;

const PREFERENCES = `(SELECT coalesce(jsonb_agg(jsonb_build_object(
              'projectId', p.project_id, 'subscriberId', p.subscriber_id, 'channel', p.channel,
              'scopeKind', p.scope_kind, 'scope', p.scope, 'enabled', p.enabled, 'updatedAt', p.updated_at)), '[]'::jsonb)
       FROM subscriber_preferences p
      WHERE p.project_id = $1 AND p.subscriber_id = $4)`;

const CAPS = `(SELECT coalesce(jsonb_agg(jsonb_build_object(
              'id', c.id, 'projectId', c.project_id, 'channel', c.channel, 'topic', c.topic,
              'maxMessages', c.max_messages, 'windowSeconds', c.window_seconds)), '[]'::jsonb)
       FROM recipient_caps c
      WHERE c.project_id = $1)`;
