import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * job_attempts: every provider attempt of a job that did not end it sent, so the job's
 * timeline can show each one: transient failures (retry), the final failure, and the calls
 * refused for rate (rate_limited) or put off (deferred) that did not use an attempt. A sent
 * attempt is the job row itself (sent_at), so a healthy queue writes nothing here; the worker
 * writes one set-based INSERT per flushed batch that had such outcomes. Rows go with their job
 * (ON DELETE CASCADE: the retention purge deletes them, one probe of job_attempts_job_idx per
 * purged job).
 */
export class JobAttempts1764460800084 implements MigrationInterface {
  name = 'JobAttempts1764460800084';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE job_attempts (
        id        bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        job_id    uuid NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
        at        timestamptz NOT NULL DEFAULT now(),
        attempt   integer NOT NULL,
        outcome   text NOT NULL CHECK (outcome IN ('retry','failed','rate_limited','deferred')),
        counted   boolean NOT NULL,
        provider  text,
        error     text,
        next_at   timestamptz
      )`);
    await q.query(`CREATE INDEX job_attempts_job_idx ON job_attempts (job_id, id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS job_attempts`);
  }
}
