import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Per-project providers: a project's own account with a provider, per channel. `settings` holds
 * the fields that are not secret; `secrets` the secret ones, sealed with AES-256-GCM under
 * NOTIFYD_SECRET_KEY (`key_id` says which key, for rotation). Read once per claimed batch for
 * the batch's projects (primary key).
 */
export class ProjectProviders1764460800011 implements MigrationInterface {
  name = 'ProjectProviders1764460800011';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE project_providers (
        project_id  text NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
        channel     text NOT NULL,
        provider    text NOT NULL,
        settings    jsonb NOT NULL DEFAULT '{}',
        secrets     text NOT NULL,
        key_id      text NOT NULL,
        created_at  timestamptz NOT NULL DEFAULT now(),
        updated_at  timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (project_id, channel)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS project_providers`);
  }
}
