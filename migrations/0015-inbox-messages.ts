import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The in-app inbox (notifyd's shape, plus `title`, `topic` and `job_id`). A row is written by
 * the statement that marks its in-app job sent (src/connectors/in-app/inbox-finalise.sql.ts),
 * so a sent in-app job and its message never exist one without the other; `job_id` is unique
 * so that a replayed finalisation cannot insert a message twice.
 *
 * No foreign key to jobs (finished jobs are purged on retention; the message stays). The key
 * to subscribers cascades: deleting a subscriber deletes their inbox.
 */
export class InboxMessages1764460800015 implements MigrationInterface {
  name = 'InboxMessages1764460800015';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE inbox_messages (
        id             uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        project_id     text NOT NULL,
        subscriber_id  text NOT NULL,
        job_id         uuid UNIQUE,
        title          text,
        body           text NOT NULL,
        icon           text NOT NULL DEFAULT 'bell',
        url            text,
        data           jsonb NOT NULL DEFAULT '{}',
        topic          text,
        read_at        timestamptz,
        archived_at    timestamptz,
        is_todo        boolean NOT NULL DEFAULT false,
        created_at     timestamptz NOT NULL DEFAULT now(),
        FOREIGN KEY (project_id, subscriber_id) REFERENCES subscribers (project_id, id) ON DELETE CASCADE
      )`);
    // A subscriber's inbox, newest first (list, stream catch-up); archived messages leave it.
    await q.query(`
      CREATE INDEX inbox_messages_subscriber_idx ON inbox_messages (project_id, subscriber_id, created_at DESC)
       WHERE archived_at IS NULL`);
    // The unread badge: a count over unread, unarchived rows only.
    await q.query(`
      CREATE INDEX inbox_messages_unread_idx ON inbox_messages (project_id, subscriber_id)
       WHERE read_at IS NULL AND archived_at IS NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS inbox_messages`);
  }
}
