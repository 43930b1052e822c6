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

/** Delete one device of the project (by primary key; scoped so another project's id does nothing). */
export const DELETE_PUSH_TOKEN = `DELETE FROM push_tokens WHERE id = $1 AND project_id = $2`;

/**
 * Delete devices a provider declared gone (404/410, UNREGISTERED, BadDeviceToken), in one
 * statement per fan-out. Matching the token too means a token re-registered under the same
 * id meanwhile is impossible to delete by mistake (ids are never reused anyway).
 */
export const DELETE_DEAD_TOKENS = `
  DELETE FROM push_tokens t
   USING unnest($2::uuid[], $3::text[]) AS dead (id, token)
   WHERE t.project_id = $1 AND t.id = dead.id AND t.token = dead.token`;
