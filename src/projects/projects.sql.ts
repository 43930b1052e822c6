import { preparedSql } from '../database/prepared-sql.js';

/** Columns mapped to ProjectRow, shared by every read. */
const PROJECT_COLUMNS = `
  id, name, channels, settings, from_email AS "fromEmail", from_name AS "fromName",
  rate_limit_per_min AS "rateLimitPerMin", api_key_hint AS "apiKeyHint",
  secondary_api_key_hint AS "secondaryApiKeyHint", key_rotated_at AS "keyRotatedAt",
  COALESCE(token_epoch, 0)::text AS "tokenEpoch", created_at AS "createdAt", updated_at AS "updatedAt"`;

/** Resolve a key hash to its project: primary or secondary (grace) key. Unique partial indexes on both. */
export const FIND_PROJECT_BY_KEY_HASH = `
  SELECT ${PROJECT_COLUMNS} FROM projects
   WHERE api_key_hash = $1
  UNION ALL
  SELECT ${PROJECT_COLUMNS} FROM projects
   WHERE secondary_api_key_hash = $1
  LIMIT 1`;

export const FIND_PROJECT = `SELECT ${PROJECT_COLUMNS} FROM projects WHERE id = $1`;

export const LIST_PROJECTS = `SELECT ${PROJECT_COLUMNS} FROM projects ORDER BY id`;

/** Insert a project; ON CONFLICT returns nothing so the caller can answer 409. */
export const INSERT_PROJECT = `
  INSERT INTO projects (id, name, channels, rate_limit_per_min, settings, from_email, from_name, api_key_hash, api_key_hint)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
  ON CONFLICT (id) DO NOTHING
  RETURNING ${PROJECT_COLUMNS}`;

/**
 * Partial update: each column is replaced only when its "set" flag is true, so that an
 * explicit null (clear the field) differs from an absent field (keep it). Settings: the keys
 * in $13 are removed, then $12 is merged in.
 */
export const UPDATE_PROJECT = `
  UPDATE projects SET
    name               = CASE WHEN $2::boolean THEN $3 ELSE name END,
    channels           = CASE WHEN $4::boolean THEN $5::text[] ELSE channels END,
    from_email         = CASE WHEN $6::boolean THEN $7 ELSE from_email END,
    from_name          = CASE WHEN $8::boolean THEN $9 ELSE from_name END,
    rate_limit_per_min = CASE WHEN $10::boolean THEN $11::integer ELSE rate_limit_per_min END,
    settings           = (settings - $13::text[]) || $12::jsonb,
    updated_at         = now()
  WHERE id = $1
  RETURNING ${PROJECT_COLUMNS}`;

/** Rotation: the current key becomes the secondary (still valid until revoked), a new primary is set. */
export const ROTATE_PROJECT_KEY = `
  UPDATE projects SET
    secondary_api_key_hash = api_key_hash, secondary_api_key_hint = api_key_hint,
    api_key_hash = $2, api_key_hint = $3, key_rotated_at = now(), updated_at = now()
  WHERE id = $1
  RETURNING ${PROJECT_COLUMNS}`;

export const REVOKE_SECONDARY_KEY = `
  UPDATE projects SET secondary_api_key_hash = NULL, secondary_api_key_hint = NULL, updated_at = now()
  WHERE id = $1
  RETURNING ${PROJECT_COLUMNS}`;

/** Jobs have no FK to projects (see migration 0001), so they are deleted explicitly, first. */
export const DELETE_PROJECT_JOBS = `DELETE FROM jobs WHERE project_id = $1`;
export const DELETE_PROJECT = `DELETE FROM projects WHERE id = $1 RETURNING id`;

/** Ensure a project exists with the given key hash (first-start bootstrap in embedded mode). */
export const ENSURE_PROJECT = `
  INSERT INTO projects (id, name, channels, api_key_hash, api_key_hint)
  VALUES ($1, $2, $3, $4, $5)
  ON CONFLICT (id) DO NOTHING`;

/** Sender identities of the projects in a claimed batch (one probe of the primary key). */
export const FIND_SENDERS = preparedSql(
  'notifyd_find_senders',
  `SELECT id, from_email AS "fromEmail", from_name AS "fromName", settings ->> 'rendered_content' AS "renderedContent" FROM projects WHERE id = ANY($1::text[])`,
);
