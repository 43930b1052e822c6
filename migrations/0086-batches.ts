import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Campaign status (issue 26). `batches`: one row per POST /v1/batch call, written when the call
 * starts and completed when it ends, holding what only the call knows: its tags, channels,
 * audience and the pairs it did not queue, by reason (skipped pairs make no job to count).
 * `jobs.batch_id`: the call's id on each job it queued, so GET /v1/batches/:id counts queued,
 * sent, failed and bounced from the jobs themselves. Adding a nullable column without a default
 * is a catalogue change (no table rewrite). The index is partial: the single sends (no batch id)
 * add no entry, and (batch_id, status) lets the count read the index alone where the visibility
 * map allows. A batch row outlives its jobs' retention only until the worker's purge removes
 * batches whose jobs are all gone (see PURGE_EMPTY_BATCHES).
 */
export class Batches1764460800086 implements MigrationInterface {
  name = 'Batches1764460800086';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE batches (
        id                    uuid PRIMARY KEY,
        project_id            text NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
        created_at            timestamptz NOT NULL DEFAULT now(),
        completed_at          timestamptz,
        channels              text[] NOT NULL,
        tags                  jsonb,
        topic                 text,
        priority              integer NOT NULL,
        scheduled_at          timestamptz,
        segment               jsonb,
        subscribers           integer NOT NULL DEFAULT 0,
        jobs_created          integer NOT NULL DEFAULT 0,
        jobs_deduplicated     integer NOT NULL DEFAULT 0,
        skipped_by_reason     jsonb NOT NULL DEFAULT '{}'::jsonb
      )`);
    await q.query(`CREATE INDEX batches_project_idx ON batches (project_id, created_at DESC)`);
    await q.query(`ALTER TABLE jobs ADD COLUMN batch_id uuid`);
    await q.query(`CREATE INDEX jobs_batch_idx ON jobs (batch_id, status) WHERE batch_id IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS jobs_batch_idx`);
    await q.query(`ALTER TABLE jobs DROP COLUMN IF EXISTS batch_id`);
    await q.query(`DROP TABLE IF EXISTS batches`);
  }
}
