/*
 * Reads from a notifyd 0.x database (the Rust notifyd, schema of its migrations 001–024,
 * reference §8). All run in one READ ONLY, REPEATABLE READ transaction, so the import sees one
 * snapshot of a 0.x instance that may still be serving. Large tables are read in keyset pages
 * ordered by their primary key (uuid ids compared as text, a sort per page: a one-off import
 * reads each row once); small tables whole.
 */

/** The columns the import needs, per table: what 0.x's newest migrations (up to 024) leave. */
export const REQUIRED_COLUMNS: Record<string, string[]> = {
  projects: [
    'id',
    'name',
    'channels',
    'api_key_hash',
    'secondary_api_key_hash',
    'rate_limit_per_min',
    'settings',
    'from_email',
    'from_name',
    'created_at',
  ],
  subscribers: [
    'project_id',
    'id',
    'email',
    'phone',
    'first_name',
    'last_name',
    'locale',
    'data',
    'timezone',
    'created_at',
  ],
  subscriber_preferences: ['project_id', 'subscriber_id', 'channel', 'workflow_id', 'enabled'],
  templates: ['project_id', 'id', 'channel', 'subject', 'body', 'body_html', 'topic'],
  push_tokens: [
    'id',
    'project_id',
    'subscriber_id',
    'token',
    'platform',
    'device_name',
    'endpoint',
    'p256dh',
    'auth',
    'expiration_time',
    'user_agent',
    'created_at',
    'last_used_at',
  ],
  webhooks: ['id', 'project_id', 'url', 'events', 'secret', 'enabled'],
  workflows: ['project_id', 'id', 'name', 'description', 'trigger_event', 'steps', 'enabled'],
  email_suppressions: [
    'id',
    'project_id',
    'email',
    'reason',
    'detail',
    'provider_event_id',
    'created_at',
    'released_at',
    'released_by',
    'scope',
  ],
  jobs: ['project_id', 'topic'],
};

/** What the source holds: its tables and their columns (public schema), to tell a 0.x database from anything else. */
export const SOURCE_COLUMNS = `
  SELECT table_name AS "table", array_agg(column_name::text ORDER BY column_name) AS columns
    FROM information_schema.columns
   WHERE table_schema = current_schema()
   GROUP BY table_name`;

export const BEGIN_SNAPSHOT = `BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY`;

export const SOURCE_PROJECTS = `
  SELECT id, name, channels, api_key_hash, secondary_api_key_hash, rate_limit_per_min, settings, from_email, from_name, created_at
    FROM projects ORDER BY id`;

/** Keyset page: $1, $2 the last (project_id, id) read ('' to start), $3 page size. */
export const SOURCE_SUBSCRIBERS = `
  SELECT project_id, id, email, phone, first_name, last_name, locale, data, timezone, created_at
    FROM subscribers WHERE (project_id, id) > ($1, $2)
   ORDER BY project_id, id LIMIT $3`;

/** Keyset page over the primary key (project_id, subscriber_id, channel, workflow_id). */
export const SOURCE_PREFERENCES = `
  SELECT project_id, subscriber_id, channel, workflow_id, enabled
    FROM subscriber_preferences WHERE (project_id, subscriber_id, channel, workflow_id) > ($1, $2, $3, $4)
   ORDER BY project_id, subscriber_id, channel, workflow_id LIMIT $5`;

export const SOURCE_TEMPLATES = `
  SELECT project_id, id, channel, subject, body, body_html, topic FROM templates ORDER BY project_id, id, channel`;

/**
 * The topics a project used: those of its templates and of its jobs (0.x kept no topic table;
 * a topic existed by being named). Served by jobs_project_topic (project_id, topic).
 */
export const SOURCE_TOPICS = `
  SELECT project_id, lower(topic) AS topic FROM templates WHERE topic IS NOT NULL
  UNION
  SELECT DISTINCT project_id, lower(topic) FROM jobs WHERE topic IS NOT NULL`;

/** Keyset page over id; expiration_time as text whatever its 0.x type. */
export const SOURCE_PUSH_TOKENS = `
  SELECT id::text AS id, project_id, subscriber_id, token, platform, device_name, endpoint, p256dh, auth,
         expiration_time::text AS expiration_time, user_agent, created_at, last_used_at
    FROM push_tokens WHERE id::text > $1 ORDER BY id::text LIMIT $2`;

export const SOURCE_WEBHOOKS = `SELECT id::text AS id, project_id, url, events, secret, enabled FROM webhooks ORDER BY id`;

export const SOURCE_WORKFLOWS = `
  SELECT project_id, id, name, description, trigger_event, steps, enabled FROM workflows ORDER BY project_id, id`;

/** Keyset page over id: every suppression, released ones too (they are history). */
export const SOURCE_SUPPRESSIONS = `
  SELECT id::text AS id, project_id, email, reason, detail, provider_event_id, created_at, released_at, released_by, scope
    FROM email_suppressions WHERE id::text > $1 ORDER BY id::text LIMIT $2`;

/** Whether the source has 0.x's per-user Telegram tables (its migration 024, v0.4.0). */
export const SOURCE_HAS_TELEGRAM = `
  SELECT to_regclass('telegram_credentials') IS NOT NULL AND to_regclass('telegram_destinations') IS NOT NULL AS present`;

/** Per-user bots (one row per owner): keyset page over id, as text, like the other uuid keys. */
export const SOURCE_TELEGRAM_CREDENTIALS = `
  SELECT id::text AS id, project_id, owner, bot_token_enc, bot_username, webhook_connection_id::text AS webhook_connection_id, webhook_secret_enc
    FROM telegram_credentials WHERE id::text > $1 ORDER BY id::text LIMIT $2`;

/** Their chats: keyset page over id, as text. */
export const SOURCE_TELEGRAM_DESTINATIONS = `
  SELECT id::text AS id, project_id, owner, credential_id::text AS credential_id, address, telegram_thread_id::text AS telegram_thread_id, verified
    FROM telegram_destinations WHERE id::text > $1 ORDER BY id::text LIMIT $2`;
