const CREDENTIAL = `
  c.id, c.project_id AS "projectId", c.owner, c.bot_id::text AS "botId", c.bot_username AS "botUsername",
  c.bot_token_sealed AS "botTokenSealed", c.token_hint AS "tokenHint", c.webhook_connection_id AS "connectionId",
  c.webhook_secret_sealed AS "webhookSecretSealed", c.webhook_registered AS "webhookRegistered", c.key_id AS "keyId",
  c.created_at AS "createdAt", c.updated_at AS "updatedAt"`;

const DESTINATION = `
  d.id, d.project_id AS "projectId", d.owner, d.credential_id AS "credentialId", d.address,
  d.telegram_thread_id::text AS "threadId", d.verified, d.created_at AS "createdAt"`;

/** An owner's bot in a project (UNIQUE (project_id, owner)). */
export const GET_CREDENTIAL = `SELECT ${CREDENTIAL} FROM telegram_credentials c WHERE c.project_id = $1 AND c.owner = $2`;

/** The bot a Telegram update is for (UNIQUE webhook_connection_id). */
export const CREDENTIAL_BY_CONNECTION = `SELECT ${CREDENTIAL} FROM telegram_credentials c WHERE c.webhook_connection_id = $1`;

/**
 * Store an owner's bot, or replace it: the id (the route id sends name) stays, the webhook's
 * connection id and secret are new each time. Another bot than before drops the chat and the
 * link tokens paired with the old one (they were that bot's chats), in the same statement.
 * Stored before setWebhook is called, so webhook_registered is false until MARK_WEBHOOK_REGISTERED
 * (telegram-routes.service.ts putBot says why). UNIQUE (project_id, owner); the deletes by
 * UNIQUE (credential_id) and its index.
 */
export const UPSERT_CREDENTIAL = `
  WITH previous AS (
    -- The row as it was before this statement (the statement's snapshot). No FOR UPDATE: the
    -- upsert below changes the row, and a row locked after its own command changed it is skipped.
    SELECT id, bot_id FROM telegram_credentials WHERE project_id = $1 AND owner = $2),
  saved AS (
    INSERT INTO telegram_credentials AS c (project_id, owner, bot_id, bot_username, bot_token_sealed, token_hint,
                                           webhook_connection_id, webhook_secret_sealed, webhook_registered, key_id)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, false, $9)
    ON CONFLICT (project_id, owner) DO UPDATE SET
      bot_id = EXCLUDED.bot_id, bot_username = EXCLUDED.bot_username, bot_token_sealed = EXCLUDED.bot_token_sealed,
      token_hint = EXCLUDED.token_hint, webhook_connection_id = EXCLUDED.webhook_connection_id,
      webhook_secret_sealed = EXCLUDED.webhook_secret_sealed, webhook_registered = false, key_id = EXCLUDED.key_id,
      updated_at = now()
    RETURNING ${CREDENTIAL}),
  dropped_destination AS (
    DELETE FROM telegram_destinations d USING previous p
     WHERE d.credential_id = p.id AND p.bot_id <> $3),
  dropped_tokens AS (
    DELETE FROM telegram_link_tokens t USING previous p
     WHERE t.credential_id = p.id AND p.bot_id <> $3)
  SELECT * FROM saved c`;

/**
 * Telegram took the webhook to this connection: the bot can pair chats. Only while the row still
 * has that connection id (a later PUT moved it on). Primary key.
 */
export const MARK_WEBHOOK_REGISTERED = `
  UPDATE telegram_credentials c SET webhook_registered = true
   WHERE c.id = $1 AND c.webhook_connection_id = $2
  RETURNING ${CREDENTIAL}`;

/**
 * setWebhook refused: the owner's bot back as it was before the PUT ($3…$11, its previous values),
 * only while the row still has the connection id that PUT stored ($2; a later PUT moved it on).
 * Primary key.
 */
export const RESTORE_CREDENTIAL = `
  UPDATE telegram_credentials SET
    bot_id = $3, bot_username = $4, bot_token_sealed = $5, token_hint = $6, webhook_connection_id = $7,
    webhook_secret_sealed = $8, webhook_registered = $9, key_id = $10, updated_at = $11
   WHERE id = $1 AND webhook_connection_id = $2`;

/** The chat the PUT of another bot dropped, back with its bot (nothing if one was paired since). UNIQUE (project_id, owner). */
export const RESTORE_DESTINATION = `
  INSERT INTO telegram_destinations (id, project_id, owner, credential_id, address, telegram_thread_id, verified, created_at)
  VALUES ($1, $2, $3, $4, $5, $6::bigint, $7, $8)
  ON CONFLICT DO NOTHING`;

/** setWebhook refused for an owner who had no bot: the row that PUT stored goes (primary key). */
export const DELETE_UNREGISTERED_CREDENTIAL = `
  DELETE FROM telegram_credentials WHERE id = $1 AND webhook_connection_id = $2 AND NOT webhook_registered`;

/** Remove an owner's bot; its chat and link tokens go with it (ON DELETE CASCADE). */
export const DELETE_CREDENTIAL = `DELETE FROM telegram_credentials WHERE project_id = $1 AND owner = $2 AND id = $3`;

/** An owner's chat (UNIQUE (project_id, owner)). */
export const GET_DESTINATION = `SELECT ${DESTINATION} FROM telegram_destinations d WHERE d.project_id = $1 AND d.owner = $2`;

/** Set an owner's chat, replacing any earlier one (UNIQUE (project_id, owner)). */
export const UPSERT_DESTINATION = `
  INSERT INTO telegram_destinations AS d (project_id, owner, credential_id, address, telegram_thread_id, verified)
  VALUES ($1, $2, $3, $4, $5::bigint, $6)
  ON CONFLICT (project_id, owner) DO UPDATE SET
    credential_id = EXCLUDED.credential_id, address = EXCLUDED.address,
    telegram_thread_id = EXCLUDED.telegram_thread_id, verified = EXCLUDED.verified, created_at = now()
  RETURNING ${DESTINATION}`;

export const DELETE_DESTINATION = `DELETE FROM telegram_destinations WHERE project_id = $1 AND owner = $2`;

/** The credential row locked, so that two link requests of one owner take turns (primary key). */
export const LOCK_CREDENTIAL = `SELECT id FROM telegram_credentials WHERE id = $1 FOR UPDATE`;

/** When the owner's last link token was made (telegram_link_tokens_credential_idx). */
export const LAST_LINK_TOKEN_AT = `SELECT max(created_at) AS "createdAt" FROM telegram_link_tokens WHERE credential_id = $1`;

/** One active token per owner: earlier ones go when a new one is made (telegram_link_tokens_credential_idx). */
export const DELETE_LINK_TOKENS = `DELETE FROM telegram_link_tokens WHERE credential_id = $1`;

export const INSERT_LINK_TOKEN = `
  INSERT INTO telegram_link_tokens (project_id, owner, credential_id, kind, token_hash, expires_at)
  VALUES ($1, $2, $3, $4, $5, now() + make_interval(secs => $6))
  RETURNING expires_at AS "expiresAt"`;

/**
 * Use a link token once: only an unconsumed, unexpired token of this bot matches, and the
 * UPDATE takes it atomically (a replayed /start finds nothing). telegram_link_tokens_active_idx.
 */
export const CONSUME_LINK_TOKEN = `
  UPDATE telegram_link_tokens SET consumed_at = now()
   WHERE token_hash = $1 AND credential_id = $2 AND consumed_at IS NULL AND expires_at > now()
  RETURNING project_id AS "projectId", owner, kind`;

/** Verified chats of many owners (UNIQUE (project_id, owner), one probe each), with their bot. */
export const LOOKUP_DESTINATIONS = `
  SELECT d.owner, c.id AS "routeId", d.address, d.telegram_thread_id::text AS "threadId", c.bot_username AS "botUsername", d.verified
    FROM telegram_destinations d JOIN telegram_credentials c ON c.id = d.credential_id
   WHERE d.project_id = $1 AND d.owner = ANY($2::text[]) AND d.verified
   ORDER BY d.owner`;

/**
 * The routes a claimed batch sends through, with their chat: $1 route ids and $2 project ids,
 * pairwise, so that a route of another project never matches (primary key, then
 * UNIQUE (credential_id)). One statement per batch.
 */
export const ROUTES_FOR_SEND = `
  SELECT c.id, c.project_id AS "projectId", c.owner, c.bot_token_sealed AS "botTokenSealed",
         d.address, d.telegram_thread_id::text AS "threadId", coalesce(d.verified, false) AS verified
    FROM telegram_credentials c
    LEFT JOIN telegram_destinations d ON d.credential_id = c.id
   WHERE (c.id, c.project_id) IN (SELECT * FROM unnest($1::uuid[], $2::text[]))`;

/** Key rotation: a page of bots sealed with another key than the current one, by id (primary key). */
export const SEALED_WITH_OTHER_KEYS = `
  SELECT id, project_id AS "projectId", owner, bot_token_sealed AS "botTokenSealed", webhook_secret_sealed AS "webhookSecretSealed", key_id AS "keyId"
    FROM telegram_credentials WHERE key_id <> $1 AND id > $2::uuid ORDER BY id LIMIT $3`;

/** Re-sealed values, unless the row changed since it was read (its key id moved). */
export const RESEAL_CREDENTIAL = `
  UPDATE telegram_credentials SET bot_token_sealed = $3, webhook_secret_sealed = $4, key_id = $5
   WHERE id = $1 AND key_id = $2`;
