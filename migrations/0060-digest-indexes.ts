import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The digest reads a window of jobs: those created in it or finished in it (a job scheduled
 * last week that failed an hour ago belongs to the last hour). created_at already has a BRIN
 * index; this adds one on finished_at. BRIN, not btree: jobs finish roughly in heap order,
 * a BRIN summary is a few pages, and it adds no index entry per finalise on the hot path
 * (a btree would, on every one of the millions of finalising updates).
 */
export class DigestIndexes1764460800060 implements MigrationInterface {
  name = 'DigestIndexes1764460800060';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX IF NOT EXISTS jobs_finished_at_brin ON jobs USING brin (finished_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS jobs_finished_at_brin`);
  }
}
