import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Per-recipient caps: at most `max_messages` per subscriber per `window_seconds`, on one
 * channel or all ('*'), for one topic or all ('*').
 *
 * `recipient_cap_sends` is the ledger the caps are counted on: one row per job the worker let
 * through a cap (written in the same transaction that checked it, under a per-subscriber
 * advisory lock, so two workers cannot both take the last slot). It is separate from `jobs` so
 * that the queue table gets no extra index on its hot path, and it is only written for projects
 * that have caps. No foreign key either, for the same reason as jobs; old rows are purged.
 */
export class RecipientCaps1764460800045 implements MigrationInterface {
  name = 'RecipientCaps1764460800045';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE recipient_caps (
        id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        project_id      text NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
        channel         text NOT NULL DEFAULT '*',
        topic           text NOT NULL DEFAULT '*',
        max_messages    integer NOT NULL CHECK (max_messages BETWEEN 1 AND 100000),
        window_seconds  integer NOT NULL CHECK (window_seconds BETWEEN 60 AND 2678400),
        created_at      timestamptz NOT NULL DEFAULT now(),
        updated_at      timestamptz NOT NULL DEFAULT now(),
        UNIQUE (project_id, channel, topic)
      )`);
    await q.query(`
      CREATE TABLE recipient_cap_sends (
        job_id         uuid PRIMARY KEY,
        project_id     text NOT NULL,
        subscriber_id  text NOT NULL,
        channel        text NOT NULL,
        topic          text,
        sent_at        timestamptz NOT NULL DEFAULT now()
      )`);
    // The count: one subscriber's sends in a recent window.
    await q.query(
      `CREATE INDEX recipient_cap_sends_subscriber_idx ON recipient_cap_sends (project_id, subscriber_id, sent_at)`,
    );
    // The purge of rows older than the longest window: append-mostly, BRIN is enough.
    await q.query(`CREATE INDEX recipient_cap_sends_sent_at_brin ON recipient_cap_sends USING brin (sent_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS recipient_cap_sends`);
    await q.query(`DROP TABLE IF EXISTS recipient_caps`);
  }
}
