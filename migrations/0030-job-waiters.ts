import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Who waits for which job's outcome (`POST /v1/send` with `wait`, `GET /v1/jobs/:id?wait=`),
 * so that a worker on any replica signals a job's end only when somebody waits for it.
 *
 * UNLOGGED: a registration lives as long as one HTTP request (60 s at most). It writes no WAL,
 * so registering never waits for a WAL flush; after a crash or a failover the table is empty,
 * and the waiters it held were HTTP requests that are gone anyway (or fall back to polling).
 */
export class JobWaiters1764460800030 implements MigrationInterface {
  name = 'JobWaiters1764460800030';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE UNLOGGED TABLE job_waiters (
        job_id  uuid PRIMARY KEY,
        until   timestamptz NOT NULL
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS job_waiters`);
  }
}
