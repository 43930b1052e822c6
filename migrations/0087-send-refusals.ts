import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * send_refusals (issue 24, "why didn't they get it?"): one row per recipient × channel that a
 * request asked for and admission did not queue (suppressed, opted out, capped, an address the
 * channel cannot take, no address, unknown subscriber, channel not configured). Such a target
 * leaves no job, so without this row the trace could not say the send was ever asked for.
 * Admission writes one set-based INSERT per request (or fan-out page) that refused something,
 * nothing when nothing was refused, and never fails a send for it.
 *
 * No foreign key to projects, as for jobs: the check would lock the project row per insert.
 * Bounded by the worker's retention purge (JOB_RETENTION_DAYS, in batches by created_at;
 * send_refusals_created_brin), so the table holds the same days as the sent jobs.
 * The two partial indexes serve the trace, one project at a time: by address (case-insensitive)
 * and by subscriber id, newest first.
 */
export class SendRefusals1764460800087 implements MigrationInterface {
  name = 'SendRefusals1764460800087';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE send_refusals (
        id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        project_id     text NOT NULL,
        created_at     timestamptz NOT NULL DEFAULT now(),
        channel        text NOT NULL,
        recipient      text NOT NULL DEFAULT '',
        subscriber_id  text,
        rule           text NOT NULL,
        detail         text NOT NULL,
        batch_id       uuid,
        created_by     text
      )`);
    await q.query(
      `CREATE INDEX send_refusals_recipient_idx ON send_refusals (project_id, lower(recipient), created_at DESC) WHERE recipient <> ''`,
    );
    await q.query(
      `CREATE INDEX send_refusals_subscriber_idx ON send_refusals (project_id, subscriber_id, created_at DESC) WHERE subscriber_id IS NOT NULL`,
    );
    await q.query(`CREATE INDEX send_refusals_created_brin ON send_refusals USING brin (created_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS send_refusals`);
  }
}
