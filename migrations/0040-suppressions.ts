import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The do-not-contact list, for every channel (notifyd's `email_suppressions` was email only).
 *
 * One row per (project, channel, normalised address) while active; releasing a suppression
 * stamps `released_at` and keeps the row, so the list is also its own history and a new bounce
 * after a release starts a fresh row. Addresses are stored normalised by the application
 * (email lower-cased, phone in E.164, chat ids and subscriber ids verbatim), so the active
 * index is on the plain column and the worker's batch probe is an index lookup per key.
 */
export class Suppressions1764460800040 implements MigrationInterface {
  name = 'Suppressions1764460800040';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE suppressions (
        id                 uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        project_id         text NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
        channel            text NOT NULL,
        address            text NOT NULL,
        scope              text NOT NULL DEFAULT 'all' CHECK (scope IN ('all','marketing')),
        reason             text NOT NULL CHECK (reason IN ('bounce','complaint','manual','unsubscribe','stop','invalid')),
        source             text NOT NULL,
        detail             text,
        evidence           jsonb NOT NULL DEFAULT '{}',
        source_job_id      uuid,
        provider_event_id  text,
        created_at         timestamptz NOT NULL DEFAULT now(),
        released_at        timestamptz,
        released_by        text,
        release_reason     text
      )`);
    // At most one active suppression per address and channel; the enqueue and worker probes.
    await q.query(
      `CREATE UNIQUE INDEX suppressions_active_idx ON suppressions (project_id, channel, address) WHERE released_at IS NULL`,
    );
    // Listings per project, newest first (active and released: the history).
    await q.query(`CREATE INDEX suppressions_project_idx ON suppressions (project_id, created_at DESC, id DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS suppressions`);
  }
}
