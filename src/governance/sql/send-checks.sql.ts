/**
 * Everything /v1/send reads before queueing, in one round trip instead of three (issue 9):
 *   suppressions  the active suppressions of its targets: $2 channel[] × $3 lookup address[]
 *                 (as SuppressionsRepository's ACTIVE_FOR_KEYS: suppressions' unique key)
 *   preferences   the stored preferences of subscriber $4 (null: none read; transactional or
 *                 bare-address sends) (as LIST_FOR_SUBSCRIBERS: subscriber_preferences' key)
 *   caps          the project's per-recipient caps when $5 (as LIST_CAPS: recipient_caps' key)
 * each as a jsonb array of rows shaped like those statements' rows. $1 project.
 */
export const SEND_CHECKS = `
  SELECT
    (SELECT coalesce(jsonb_agg(jsonb_build_object(
              'projectId', s.project_id, 'channel', s.channel, 'address', s.address,
              'scope', s.scope, 'reason', s.reason, 'id', s.id)), '[]'::jsonb)
       FROM unnest($2::text[], $3::text[]) AS k(channel, address)
       JOIN suppressions s
         ON s.project_id = $1 AND s.channel = k.channel AND s.address = k.address AND s.released_at IS NULL
    ) AS suppressions,
    (SELECT coalesce(jsonb_agg(jsonb_build_object(
              'projectId', p.project_id, 'subscriberId', p.subscriber_id, 'channel', p.channel,
              'scopeKind', p.scope_kind, 'scope', p.scope, 'enabled', p.enabled, 'updatedAt', p.updated_at)), '[]'::jsonb)
       FROM subscriber_preferences p
      WHERE $4::text IS NOT NULL AND p.project_id = $1 AND p.subscriber_id = $4
    ) AS preferences,
    (SELECT coalesce(jsonb_agg(jsonb_build_object(
              'id', c.id, 'projectId', c.project_id, 'channel', c.channel, 'topic', c.topic,
              'maxMessages', c.max_messages, 'windowSeconds', c.window_seconds)), '[]'::jsonb)
       FROM recipient_caps c
      WHERE $5::boolean AND c.project_id = $1
    ) AS caps`;
