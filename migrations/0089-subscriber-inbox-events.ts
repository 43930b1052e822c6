import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Deleting a subscriber deletes their inbox events. inbox_events holds a copy of each inbox
 * message (title, body, data) for the stream's replay, with no foreign key (the insert trigger
 * writes many rows per statement), so the messages went with the subscriber but their copies
 * stayed until INBOX_EVENT_RETENTION_HOURS, and a subscriber created again with the same id could
 * replay them from Last-Event-ID 0. One statement-level trigger per DELETE (a project's deletion
 * cascades here too), probing inbox_events' primary key (project_id, subscriber_id, id) per
 * deleted subscriber. inbox_streams (a counter, no content) is kept: new events continue after
 * the old ids, so a client still holding an old id gets a resync, not a replay.
 */
export class SubscriberInboxEvents1764460800089 implements MigrationInterface {
  name = 'SubscriberInboxEvents1764460800089';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION subscribers_deleted_inbox_events() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        DELETE FROM inbox_events e USING old_rows o
         WHERE e.project_id = o.project_id AND e.subscriber_id = o.id;
        RETURN NULL;
      END
      $$`);
    await q.query(`
      CREATE TRIGGER subscribers_deleted_inbox_events AFTER DELETE ON subscribers
        REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION subscribers_deleted_inbox_events()`);
    // Events already orphaned by earlier deletions.
    await q.query(`
      DELETE FROM inbox_events e
       WHERE NOT EXISTS (SELECT 1 FROM subscribers s WHERE s.project_id = e.project_id AND s.id = e.subscriber_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER IF EXISTS subscribers_deleted_inbox_events ON subscribers`);
    await q.query(`DROP FUNCTION IF EXISTS subscribers_deleted_inbox_events()`);
  }
}
