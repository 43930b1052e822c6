import { preparedSql } from '../../database/prepared-sql.js';

const COLUMNS = `project_id AS "projectId", channel, provider, settings, secrets, key_id AS "keyId", created_at AS "createdAt", updated_at AS "updatedAt"`;

/** Create or replace a project's provider for a channel. Primary key. */
export const UPSERT_PROJECT_PROVIDER = `
  INSERT INTO project_providers (project_id, channel, provider, settings, secrets, key_id)
  VALUES ($1, $2, $3, $4::jsonb, $5, $6)
  ON CONFLICT (project_id, channel) DO UPDATE
     SET provider = EXCLUDED.provider, settings = EXCLUDED.settings, secrets = EXCLUDED.secrets,
         key_id = EXCLUDED.key_id, updated_at = now()
  RETURNING ${COLUMNS}`;

/** One project's provider for a channel. Primary key. */
export const GET_PROJECT_PROVIDER = `SELECT ${COLUMNS} FROM project_providers WHERE project_id = $1 AND channel = $2`;

/** A project's providers, by channel. Primary key prefix. */
export const LIST_PROJECT_PROVIDERS = `SELECT ${COLUMNS} FROM project_providers WHERE project_id = $1 ORDER BY channel`;

/** Which of these channels a project has its own provider on (chat bindings at enqueue). Primary key. */
export const OWN_CHANNELS = `SELECT channel FROM project_providers WHERE project_id = $1 AND channel = ANY($2::text[])`;

/** The providers of the projects in a claimed batch (one read per batch). Primary key prefix. */
export const PROJECT_PROVIDERS_FOR = preparedSql(
  'notifyd_project_providers_for',
  `SELECT ${COLUMNS} FROM project_providers WHERE project_id = ANY($1::text[])`,
);

/** Remove a project's provider for a channel; its jobs go back to the instance's provider. */
export const DELETE_PROJECT_PROVIDER = `DELETE FROM project_providers WHERE project_id = $1 AND channel = $2 RETURNING project_id`;

/**
 * Rows sealed with another key than the current one (rotation), a page at a time after
 * ($2 project, $3 channel): keyset, so rows no key opens (left as they are) never fill a page
 * again. Primary key range.
 */
export const SEALED_WITH_OTHER_KEYS = `
  SELECT ${COLUMNS} FROM project_providers
   WHERE key_id <> $1 AND (project_id, channel) > ($2, $3)
   ORDER BY project_id, channel LIMIT $4`;

/** Re-seal one row under the current key, unless it changed meanwhile. Primary key. */
export const RESEAL = `
  UPDATE project_providers SET secrets = $3, key_id = $4
   WHERE project_id = $1 AND channel = $2 AND secrets = $5`;
