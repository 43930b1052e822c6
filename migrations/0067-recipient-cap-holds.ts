import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Holds on per-recipient caps (issue 6): one row per job /v1/send accepted for a subscriber
 * under a cap, written in the transaction that inserted the job, under the same per-subscriber
 * advisory lock the worker takes. Enqueue counts holds whose job is still live (pending, retry,
 * processing) and not yet in the ledger (recipient_cap_sends), so ten sends in one second to a
 * subscriber capped at 3 get three acceptances, not ten. The worker never reads this table:
 * its ledger check stays the final word.
 *
 * A table of its own rather than an index on jobs, for the reason recipient_cap_sends is one:
 * the queue table's hot path gets no extra index, and only projects with caps write here.
 */
export class RecipientCapHolds1764460800067 implements MigrationInterface {
  name = 'RecipientCapHolds1764460800067';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE recipient_cap_holds (
        job_id         uuid PRIMARY KEY,
        project_id     text NOT NULL,
        subscriber_id  text NOT NULL,
        channel        text NOT NULL,
        topic          text,
        due_at         timestamptz NOT NULL,
        created_at     timestamptz NOT NULL DEFAULT now()
      )`);
    // The count at enqueue: one subscriber's holds due around the new job's time.
    await q.query(
      `CREATE INDEX recipient_cap_holds_subscriber_idx ON recipient_cap_holds (project_id, subscriber_id, due_at)`,
    );
    // The purge of old holds: append-only, BRIN is enough.
    await q.query(`CREATE INDEX recipient_cap_holds_created_at_brin ON recipient_cap_holds USING brin (created_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS recipient_cap_holds`);
  }
}
