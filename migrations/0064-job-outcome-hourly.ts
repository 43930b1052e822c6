import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The digest's hourly rollup (issue 8: 7d and 30d windows under 100 ms over 100 000 jobs).
 *
 * - job_outcome_hourly: per UTC hour of finished_at, the rows the digest's window query used to
 *   compute from jobs — per project × channel × provider × normalised failure cause the outcome
 *   counts and provider evidence, per channel × latency bucket the histogram counts. Filled by
 *   the periodic rollup (src/digest/rollup), never by the worker.
 * - job_rollup_state: one row, `rolled_through`: every hour before it is in the rollup. NULL
 *   until the first run, which rolls the last 30 days in the background (not here: a migration
 *   holds the start-up lock, and the digest is exact meanwhile because it reads the hours not
 *   rolled yet from jobs).
 * - job_rollup_dirty: hours whose jobs changed after they were rolled (provider evidence on an
 *   old job, a manual retry). The digest reads those hours from jobs until the next run
 *   re-rolls them, so it stays exact. The trigger that records them only fires for updates of
 *   a job that finished in an earlier hour: the worker's finalise updates jobs that have not
 *   finished (finished_at IS NULL), so for it the WHEN clause is false at its first test and
 *   no function runs. The retention purge deletes (no trigger): rollups outlive purged jobs.
 */
export class JobOutcomeHourly1764460800064 implements MigrationInterface {
  name = 'JobOutcomeHourly1764460800064';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE job_outcome_hourly (
        hour               timestamptz NOT NULL,
        project_id         text,
        channel            text NOT NULL,
        provider           text,
        reason             text,
        bucket             int,
        sent               int NOT NULL DEFAULT 0,
        failed             int NOT NULL DEFAULT 0,
        bounced            int NOT NULL DEFAULT 0,
        cancelled          int NOT NULL DEFAULT 0,
        delivered_events   int NOT NULL DEFAULT 0,
        bounced_events     int NOT NULL DEFAULT 0,
        complained_events  int NOT NULL DEFAULT 0,
        n                  int NOT NULL DEFAULT 0,
        last_finished_at   timestamptz,
        newest             text
      )`);
    await q.query(`CREATE INDEX job_outcome_hourly_hour_idx ON job_outcome_hourly (hour)`);
    await q.query(`
      CREATE TABLE job_rollup_state (
        id              boolean PRIMARY KEY DEFAULT true CHECK (id),
        rolled_through  timestamptz
      )`);
    await q.query(`INSERT INTO job_rollup_state (id, rolled_through) VALUES (true, NULL)`);
    await q.query(`CREATE TABLE job_rollup_dirty (hour timestamptz PRIMARY KEY)`);
    await q.query(`
      CREATE FUNCTION job_rollup_mark_dirty() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO job_rollup_dirty (hour) VALUES (date_trunc('hour', OLD.finished_at, 'UTC')) ON CONFLICT DO NOTHING;
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE TRIGGER jobs_rollup_dirty AFTER UPDATE ON jobs FOR EACH ROW
        WHEN (OLD.finished_at IS NOT NULL
              AND OLD.finished_at < date_trunc('hour', now(), 'UTC')
              AND (OLD.status, OLD.finished_at, OLD.sent_at, OLD.delivered_at, OLD.bounced_at, OLD.complained_at, OLD.error, OLD.provider)
                  IS DISTINCT FROM
                  (NEW.status, NEW.finished_at, NEW.sent_at, NEW.delivered_at, NEW.bounced_at, NEW.complained_at, NEW.error, NEW.provider))
        EXECUTE FUNCTION job_rollup_mark_dirty()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER IF EXISTS jobs_rollup_dirty ON jobs`);
    await q.query(`DROP FUNCTION IF EXISTS job_rollup_mark_dirty()`);
    await q.query(`DROP TABLE IF EXISTS job_rollup_dirty`);
    await q.query(`DROP TABLE IF EXISTS job_rollup_state`);
    await q.query(`DROP TABLE IF EXISTS job_outcome_hourly`);
  }
}
