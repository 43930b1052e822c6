import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Subscribers' preferences: one row per subscriber × channel (or '*') × scope. notifyd kept the
 * scope in one column (topic, workflow or template id, or '*'); the kind is explicit here so
 * that a topic and a workflow of the same name never match each other. Deleting a subscriber
 * deletes their preferences.
 */
export class Preferences1764460800042 implements MigrationInterface {
  name = 'Preferences1764460800042';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE subscriber_preferences (
        project_id     text NOT NULL,
        subscriber_id  text NOT NULL,
        channel        text NOT NULL,
        scope_kind     text NOT NULL CHECK (scope_kind IN ('all','topic','workflow')),
        scope          text NOT NULL,
        enabled        boolean NOT NULL,
        created_at     timestamptz NOT NULL DEFAULT now(),
        updated_at     timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (project_id, subscriber_id, channel, scope_kind, scope),
        FOREIGN KEY (project_id, subscriber_id) REFERENCES subscribers (project_id, id) ON DELETE CASCADE
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS subscriber_preferences`);
  }
}
