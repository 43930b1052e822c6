import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The inbox API and its realtime stream, on top of inbox_messages (migration 15).
 *
 * - seen_at and snoozed_until: Knock/Novu's "seen" (the bell was opened) and snooze.
 * - inbox_events: every change to a subscriber's inbox, numbered per subscriber by
 *   inbox_streams.last_event_id. The number is taken under that row's lock in the writing
 *   transaction, so for one subscriber event ids are gapless and commit in id order: a stream
 *   that read up to id N never misses an N-1 committed later (a global sequence would allow
 *   that). SSE `Last-Event-ID` replays from here after a reconnect.
 * - New messages are written by the worker's finalise statement (another module's SQL), so a
 *   statement-level trigger with a transition table turns each insert into its events in the
 *   same transaction: one trigger call per statement, set-based, whatever the batch size.
 *   Updates (read, seen, archive, snooze) come from this module's own statements, which write
 *   their event in the same statement.
 * - inbox_stream_tickets: single-use 60-second tickets for EventSource URLs (only the SHA-256
 *   of a ticket is stored), shared by every replica.
 */
export class InboxStream1764460800052 implements MigrationInterface {
  name = 'InboxStream1764460800052';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE inbox_messages ADD COLUMN seen_at timestamptz, ADD COLUMN snoozed_until timestamptz`);
    // The unseen badge.
    await q.query(`
      CREATE INDEX inbox_messages_unseen_idx ON inbox_messages (project_id, subscriber_id)
       WHERE seen_at IS NULL AND archived_at IS NULL`);
    // Snoozes that end: the tick that announces them.
    await q.query(
      `CREATE INDEX inbox_messages_snoozed_idx ON inbox_messages (snoozed_until) WHERE snoozed_until IS NOT NULL`,
    );

    await q.query(`
      CREATE TABLE inbox_streams (
        project_id     text NOT NULL,
        subscriber_id  text NOT NULL,
        last_event_id  bigint NOT NULL DEFAULT 0,
        PRIMARY KEY (project_id, subscriber_id)
      )`);
    await q.query(`
      CREATE TABLE inbox_events (
        project_id     text NOT NULL,
        subscriber_id  text NOT NULL,
        id             bigint NOT NULL,
        type           text NOT NULL,
        data           jsonb NOT NULL,
        created_at     timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (project_id, subscriber_id, id)
      )`);
    // Retention of old events (a reconnect older than that gets a resync instead of a replay).
    await q.query(`CREATE INDEX inbox_events_created_brin ON inbox_events USING brin (created_at)`);

    await q.query(`
      CREATE TABLE inbox_stream_tickets (
        ticket_hash    text PRIMARY KEY,
        project_id     text NOT NULL,
        subscriber_id  text NOT NULL,
        expires_at     timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX inbox_stream_tickets_expires_idx ON inbox_stream_tickets (expires_at)`);

    // The JSON of a message as events and the API show it (one definition for SQL and trigger).
    await q.query(`
      CREATE FUNCTION inbox_message_json(m inbox_messages) RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
        SELECT jsonb_build_object(
          'id', m.id, 'title', m.title, 'body', m.body, 'icon', m.icon, 'url', m.url, 'data', m.data,
          'topic', m.topic, 'is_read', m.read_at IS NOT NULL, 'read_at', m.read_at,
          'is_seen', m.seen_at IS NOT NULL, 'seen_at', m.seen_at,
          'is_archived', m.archived_at IS NOT NULL, 'archived_at', m.archived_at,
          'is_todo', m.is_todo, 'snoozed_until', m.snoozed_until, 'created_at', m.created_at)
      $$`);
    await q.query(`
      CREATE FUNCTION inbox_messages_created_events() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        WITH per AS (
          SELECT project_id, subscriber_id, count(*)::bigint AS n
            FROM new_rows GROUP BY project_id, subscriber_id
           ORDER BY project_id, subscriber_id
        ), bumped AS (
          INSERT INTO inbox_streams AS s (project_id, subscriber_id, last_event_id)
          SELECT project_id, subscriber_id, n FROM per ORDER BY project_id, subscriber_id
          ON CONFLICT (project_id, subscriber_id) DO UPDATE SET last_event_id = s.last_event_id + EXCLUDED.last_event_id
          RETURNING s.project_id, s.subscriber_id, s.last_event_id
        )
        INSERT INTO inbox_events (project_id, subscriber_id, id, type, data)
        SELECT r.project_id, r.subscriber_id,
               b.last_event_id - count(*) OVER w + row_number() OVER (w ORDER BY r.created_at, r.id),
               'message.created', jsonb_build_object('message', inbox_message_json(r))
          FROM new_rows r JOIN bumped b ON b.project_id = r.project_id AND b.subscriber_id = r.subscriber_id
        WINDOW w AS (PARTITION BY r.project_id, r.subscriber_id);
        RETURN NULL;
      END
      $$`);
    await q.query(`
      CREATE TRIGGER inbox_messages_created AFTER INSERT ON inbox_messages
        REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION inbox_messages_created_events()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER IF EXISTS inbox_messages_created ON inbox_messages`);
    await q.query(`DROP FUNCTION IF EXISTS inbox_messages_created_events()`);
    await q.query(`DROP FUNCTION IF EXISTS inbox_message_json(inbox_messages)`);
    await q.query(`DROP TABLE IF EXISTS inbox_stream_tickets`);
    await q.query(`DROP TABLE IF EXISTS inbox_events`);
    await q.query(`DROP TABLE IF EXISTS inbox_streams`);
    await q.query(`DROP INDEX IF EXISTS inbox_messages_snoozed_idx`);
    await q.query(`DROP INDEX IF EXISTS inbox_messages_unseen_idx`);
    await q.query(`ALTER TABLE inbox_messages DROP COLUMN IF EXISTS snoozed_until, DROP COLUMN IF EXISTS seen_at`);
  }
}
