/*
 * Writes of `notifyd import notifyd-0x` into this notifyd's database. Each takes one page of
 * converted rows as a JSON array ($1) and is idempotent: a row is inserted when new, updated when
 * the 0.x row differs, and left alone (not returned) when equal, so a second run over the same
 * source writes nothing. RETURNING (xmax = 0) tells an insert from an update.
 */

/** Projects already here among the ones imported, with their primary key hash; primary key. */
export const EXISTING_PROJECTS = `SELECT id, api_key_hash AS "apiKeyHash" FROM projects WHERE id = ANY($1::text[])`;

/**
 * Projects with their 0.x key hashes (SHA-256 hex of the key, the same form as notifyd's, so the
 * keys keep working). Updates only a project whose primary hash matches (the importer skips the
 * others); settings are merged, so settings set here since are kept.
 */
export const UPSERT_PROJECTS = `
  INSERT INTO projects AS p (id, name, channels, api_key_hash, api_key_hint, secondary_api_key_hash, secondary_api_key_hint,
                             rate_limit_per_min, settings, from_email, from_name, created_at)
  SELECT r.id, r.name, r.channels, r.api_key_hash, r.api_key_hint, r.secondary_api_key_hash, r.secondary_api_key_hint,
         r.rate_limit_per_min, r.settings, r.from_email, r.from_name, r.created_at
    FROM jsonb_to_recordset($1::jsonb) AS r(id text, name text, channels text[], api_key_hash text, api_key_hint text,
         secondary_api_key_hash text, secondary_api_key_hint text, rate_limit_per_min integer, settings jsonb,
         from_email text, from_name text, created_at timestamptz)
  ON CONFLICT (id) DO UPDATE SET
    name = excluded.name, channels = excluded.channels,
    secondary_api_key_hash = excluded.secondary_api_key_hash, secondary_api_key_hint = excluded.secondary_api_key_hint,
    rate_limit_per_min = excluded.rate_limit_per_min, settings = p.settings || excluded.settings,
    from_email = excluded.from_email, from_name = excluded.from_name, updated_at = now()
  WHERE p.api_key_hash = excluded.api_key_hash
    AND ((p.name, p.channels, p.secondary_api_key_hash, p.rate_limit_per_min, p.from_email, p.from_name)
           IS DISTINCT FROM (excluded.name, excluded.channels, excluded.secondary_api_key_hash, excluded.rate_limit_per_min, excluded.from_email, excluded.from_name)
         OR NOT p.settings @> excluded.settings)
  RETURNING id, (xmax = 0) AS inserted`;

export const UPSERT_SUBSCRIBERS = `
  INSERT INTO subscribers AS s (project_id, id, email, phone, first_name, last_name, locale, timezone, data, created_at)
  SELECT r.project_id, r.id, r.email, r.phone, r.first_name, r.last_name, r.locale, r.timezone, COALESCE(r.data, '{}'), r.created_at
    FROM jsonb_to_recordset($1::jsonb) AS r(project_id text, id text, email text, phone text, first_name text, last_name text,
         locale text, timezone text, data jsonb, created_at timestamptz)
  ON CONFLICT (project_id, id) DO UPDATE SET
    email = excluded.email, phone = excluded.phone, first_name = excluded.first_name, last_name = excluded.last_name,
    locale = excluded.locale, timezone = excluded.timezone, data = excluded.data, updated_at = now()
  WHERE (s.email, s.phone, s.first_name, s.last_name, s.locale, s.timezone, s.data)
        IS DISTINCT FROM (excluded.email, excluded.phone, excluded.first_name, excluded.last_name, excluded.locale, excluded.timezone, excluded.data)
  RETURNING (xmax = 0) AS inserted`;

/** Preferences whose subscriber exists here (a subscriber refused by the import takes its preferences along). */
export const UPSERT_PREFERENCES = `
  INSERT INTO subscriber_preferences AS sp (project_id, subscriber_id, channel, scope_kind, scope, enabled)
  SELECT r.project_id, r.subscriber_id, r.channel, r.scope_kind, r.scope, r.enabled
    FROM jsonb_to_recordset($1::jsonb) AS r(project_id text, subscriber_id text, channel text, scope_kind text, scope text, enabled boolean)
   WHERE EXISTS (SELECT 1 FROM subscribers s WHERE s.project_id = r.project_id AND s.id = r.subscriber_id)
  ON CONFLICT (project_id, subscriber_id, channel, scope_kind, scope) DO UPDATE SET enabled = excluded.enabled, updated_at = now()
  WHERE sp.enabled IS DISTINCT FROM excluded.enabled
  RETURNING (xmax = 0) AS inserted`;

/** Templates: 0.x had no locales, so each is the default variant (locale ''). */
export const UPSERT_TEMPLATES = `
  INSERT INTO templates AS t (project_id, id, channel, locale, subject, body, body_html, topic)
  SELECT r.project_id, r.id, r.channel, '', r.subject, r.body, r.body_html, r.topic
    FROM jsonb_to_recordset($1::jsonb) AS r(project_id text, id text, channel text, subject text, body text, body_html text, topic text)
  ON CONFLICT (project_id, id, channel, locale) DO UPDATE SET
    subject = excluded.subject, body = excluded.body, body_html = excluded.body_html, topic = excluded.topic, updated_at = now()
  WHERE (t.subject, t.body, t.body_html, t.topic) IS DISTINCT FROM (excluded.subject, excluded.body, excluded.body_html, excluded.topic)
  RETURNING (xmax = 0) AS inserted`;

/** Push tokens whose subscriber exists here; unique (project_id, subscriber_id, token). */
export const UPSERT_PUSH_TOKENS = `
  INSERT INTO push_tokens AS pt (project_id, subscriber_id, token, platform, device_name, endpoint, p256dh, auth, expiration_time, user_agent, created_at, last_used_at)
  SELECT r.project_id, r.subscriber_id, r.token, r.platform, r.device_name, r.endpoint, r.p256dh, r.auth, r.expiration_time, r.user_agent, r.created_at, r.last_used_at
    FROM jsonb_to_recordset($1::jsonb) AS r(project_id text, subscriber_id text, token text, platform text, device_name text, endpoint text,
         p256dh text, auth text, expiration_time bigint, user_agent text, created_at timestamptz, last_used_at timestamptz)
   WHERE EXISTS (SELECT 1 FROM subscribers s WHERE s.project_id = r.project_id AND s.id = r.subscriber_id)
  ON CONFLICT (project_id, subscriber_id, token) DO UPDATE SET
    platform = excluded.platform, device_name = excluded.device_name, endpoint = excluded.endpoint, p256dh = excluded.p256dh,
    auth = excluded.auth, expiration_time = excluded.expiration_time, user_agent = excluded.user_agent
  WHERE (pt.platform, pt.device_name, pt.endpoint, pt.p256dh, pt.auth, pt.expiration_time, pt.user_agent)
        IS DISTINCT FROM (excluded.platform, excluded.device_name, excluded.endpoint, excluded.p256dh, excluded.auth, excluded.expiration_time, excluded.user_agent)
  RETURNING (xmax = 0) AS inserted`;

/**
 * Webhook endpoints keep their 0.x id and secret (sealed here, $2 per row in the JSON as hex)
 * and are signed the 0.x way as well (signature_format). The secret of an endpoint already
 * imported is not rewritten: sealing is randomised, so comparing would always differ.
 */
export const UPSERT_WEBHOOKS = `
  INSERT INTO webhook_endpoints AS w (id, project_id, url, description, events, enabled, secret_enc, secret_hint, signature_format)
  SELECT r.id, r.project_id, r.url, 'imported from notifyd 0.x', r.events, r.enabled, decode(r.secret_enc, 'hex'), r.secret_hint, 'notifyd-0x'
    FROM jsonb_to_recordset($1::jsonb) AS r(id uuid, project_id text, url text, events text[], enabled boolean, secret_enc text, secret_hint text)
  ON CONFLICT (id) DO UPDATE SET url = excluded.url, events = excluded.events, enabled = excluded.enabled, updated_at = now()
  WHERE w.project_id = excluded.project_id AND (w.url, w.events, w.enabled) IS DISTINCT FROM (excluded.url, excluded.events, excluded.enabled)
  RETURNING (xmax = 0) AS inserted`;

/** Workflows, their steps already converted to notifyd's step language. */
export const UPSERT_WORKFLOWS = `
  INSERT INTO workflows AS wf (project_id, id, name, description, trigger_event, steps, enabled)
  SELECT r.project_id, r.id, r.name, r.description, r.trigger_event, r.steps, r.enabled
    FROM jsonb_to_recordset($1::jsonb) AS r(project_id text, id text, name text, description text, trigger_event text, steps jsonb, enabled boolean)
  ON CONFLICT (project_id, id) DO UPDATE SET
    name = excluded.name, description = excluded.description, trigger_event = excluded.trigger_event,
    steps = excluded.steps, enabled = excluded.enabled, updated_at = now()
  WHERE (wf.name, wf.description, wf.trigger_event, wf.steps, wf.enabled)
        IS DISTINCT FROM (excluded.name, excluded.description, excluded.trigger_event, excluded.steps, excluded.enabled)
  RETURNING (xmax = 0) AS inserted`;

/**
 * Email suppressions keep their 0.x id (so a second run finds them) and history (released rows
 * too). An active row is not inserted when this project already suppresses the address
 * (suppressions_active_idx allows one active row per address).
 */
export const UPSERT_SUPPRESSIONS = `
  INSERT INTO suppressions AS x (id, project_id, channel, address, scope, reason, source, detail, evidence, provider_event_id, created_at, released_at, released_by)
  SELECT r.id, r.project_id, 'email', r.address, r.scope, r.reason, 'notifyd-0x', r.detail, '{"imported_from":"notifyd 0.x"}',
         r.provider_event_id, r.created_at, r.released_at, r.released_by
    FROM jsonb_to_recordset($1::jsonb) AS r(id uuid, project_id text, address text, scope text, reason text, detail text,
         provider_event_id text, created_at timestamptz, released_at timestamptz, released_by text)
   WHERE r.released_at IS NOT NULL
      OR NOT EXISTS (SELECT 1 FROM suppressions a WHERE a.project_id = r.project_id AND a.channel = 'email' AND a.address = r.address
                                                   AND a.released_at IS NULL AND a.id <> r.id)
  ON CONFLICT (id) DO UPDATE SET released_at = excluded.released_at, released_by = excluded.released_by
  WHERE x.project_id = excluded.project_id AND (x.released_at, x.released_by) IS DISTINCT FROM (excluded.released_at, excluded.released_by)
  RETURNING (xmax = 0) AS inserted`;

/**
 * Per-user Telegram bots keep their 0.x id (the route id senders stored). An owner who already
 * has another route here keeps it (the 0.x row is not written). A second run rewrites nothing
 * unless the bot or its webhook connection changed in 0.x (the sealed values differ on every
 * run, so they are not compared).
 */
export const UPSERT_TELEGRAM_CREDENTIALS = `
  INSERT INTO telegram_credentials AS c (id, project_id, owner, bot_id, bot_username, bot_token_sealed, token_hint,
                                         webhook_connection_id, webhook_secret_sealed, key_id)
  SELECT r.id, r.project_id, r.owner, r.bot_id, r.bot_username, r.bot_token_sealed, r.token_hint, r.webhook_connection_id, r.webhook_secret_sealed, r.key_id
    FROM jsonb_to_recordset($1::jsonb) AS r(id uuid, project_id text, owner text, bot_id bigint, bot_username text, bot_token_sealed text,
                                             token_hint text, webhook_connection_id uuid, webhook_secret_sealed text, key_id text)
   WHERE NOT EXISTS (SELECT 1 FROM telegram_credentials o WHERE o.project_id = r.project_id AND o.owner = r.owner AND o.id <> r.id)
  ON CONFLICT (id) DO UPDATE SET
    bot_id = excluded.bot_id, bot_username = excluded.bot_username, bot_token_sealed = excluded.bot_token_sealed,
    token_hint = excluded.token_hint, webhook_connection_id = excluded.webhook_connection_id,
    webhook_secret_sealed = excluded.webhook_secret_sealed, key_id = excluded.key_id, updated_at = now()
  WHERE c.project_id = excluded.project_id AND c.owner = excluded.owner
    AND (c.bot_id, c.bot_username, c.webhook_connection_id) IS DISTINCT FROM (excluded.bot_id, excluded.bot_username, excluded.webhook_connection_id)
  RETURNING (xmax = 0) AS inserted`;

/** An owner's chat, by its 0.x id; not written where the owner already has another chat here. */
export const UPSERT_TELEGRAM_DESTINATIONS = `
  INSERT INTO telegram_destinations AS d (id, project_id, owner, credential_id, address, telegram_thread_id, verified)
  SELECT r.id, r.project_id, r.owner, r.credential_id, r.address, r.telegram_thread_id, r.verified
    FROM jsonb_to_recordset($1::jsonb) AS r(id uuid, project_id text, owner text, credential_id uuid, address text, telegram_thread_id bigint, verified boolean)
   WHERE EXISTS (SELECT 1 FROM telegram_credentials c WHERE c.id = r.credential_id AND c.project_id = r.project_id AND c.owner = r.owner)
     AND NOT EXISTS (SELECT 1 FROM telegram_destinations o WHERE (o.credential_id = r.credential_id OR (o.project_id, o.owner) = (r.project_id, r.owner)) AND o.id <> r.id)
  ON CONFLICT (id) DO UPDATE SET address = excluded.address, telegram_thread_id = excluded.telegram_thread_id, verified = excluded.verified
  WHERE d.credential_id = excluded.credential_id
    AND (d.address, d.telegram_thread_id, d.verified) IS DISTINCT FROM (excluded.address, excluded.telegram_thread_id, excluded.verified)
  RETURNING (xmax = 0) AS inserted`;
