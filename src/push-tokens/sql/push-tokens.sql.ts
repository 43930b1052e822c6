const TOKEN_COLUMNS = `
  id, subscriber_id AS "subscriberId", token, platform, device_name AS "deviceName", endpoint, p256dh, auth,
  expiration_time::float8 AS "expirationTime", user_agent AS "userAgent", created_at AS "createdAt", last_used_at AS "lastUsedAt"`;

/**
 * Register a device, or refresh it when the subscriber registers the same token again (a
 * browser re-subscribing, an app start): every field is replaced and last_used_at moves.
 * Served by push_tokens_subscriber_token_idx. xmax = 0 tells an insert apart. An unknown
 * subscriber fails the foreign key (23503).
 */
export const UPSERT_PUSH_TOKEN = `
  INSERT INTO push_tokens AS t (project_id, subscriber_id, token, platform, device_name, endpoint, p256dh, auth, expiration_time, user_agent)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
  ON CONFLICT (project_id, subscriber_id, token) DO UPDATE SET
    platform = EXCLUDED.platform, device_name = EXCLUDED.device_name, endpoint = EXCLUDED.endpoint,
    p256dh = EXCLUDED.p256dh, auth = EXCLUDED.auth, expiration_time = EXCLUDED.expiration_time,
    user_agent = EXCLUDED.user_agent, last_used_at = now()
  RETURNING ${TOKEN_COLUMNS}, (xmax = 0) AS created`;

/** A subscriber's devices, most recently used first (prefix of push_tokens_subscriber_token_idx). */
export const LIST_SUBSCRIBER_TOKENS = `
  SELECT ${TOKEN_COLUMNS} FROM push_tokens
   WHERE project_id = $1 AND subscriber_id = $2
   ORDER BY last_used_at DESC, id`;

/**
 * The devices of many subscribers at once (a push connector call: one statement per batch of
 * jobs, not one per job), each subscriber's most recently used first. $1 project ids, $2
 * subscriber ids, pairwise): a semi-join, each pair an index lookup on the prefix of
 * push_tokens_subscriber_token_idx.
 */
export const LIST_SUBSCRIBERS_TOKENS = `
  SELECT project_id AS "projectId", ${TOKEN_COLUMNS} FROM push_tokens
   WHERE (project_id, subscriber_id) IN (SELECT * FROM unnest($1::text[], $2::text[]))
   ORDER BY project_id, subscriber_id, last_used_at DESC, id`;

/** Delete one device of the project (by primary key; scoped so another project's id does nothing). */
export const DELETE_PUSH_TOKEN = `DELETE FROM push_tokens WHERE id = $1 AND project_id = $2`;

/**
 * Delete devices a provider declared gone (404/410, UNREGISTERED, BadDeviceToken), in one
 * statement per push connector call, whatever the projects ($1 project ids, $2 ids, $3
 * tokens, by position; primary key). Matching the project scopes each id; matching the token
 * too means a token re-registered under the same id meanwhile is impossible to delete by
 * mistake (ids are never reused anyway).
 */
export const DELETE_DEAD_TOKENS = `
  DELETE FROM push_tokens t
   USING unnest($1::text[], $2::uuid[], $3::text[]) AS dead (project_id, id, token)
   WHERE t.id = dead.id AND t.project_id = dead.project_id AND t.token = dead.token`;
