import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The digest's rollup reaches into the open hour (issue 20: every window ≤ 50 ms over 100 000
 * jobs, also right after they were all sent).
 *
 * - job_rollup_state.hours_through: every hour before it is in job_outcome_hourly as whole-hour
 *   rows (rolled from jobs 5 minutes after it closed, as before). rolled_through keeps its
 *   meaning — everything finished before it is in the rollup — but may now stand inside an hour:
 *   [hours_through, rolled_through) is rolled in 5-minute periods, each as soon as the
 *   transactions that can still stamp it have ended (src/digest/rollup). job_outcome_hourly.hour
 *   is the start of a row's period: an hour before hours_through, a 5-minute period after.
 * - job_rollup_dirty now holds 5-minute periods: the trigger marks the period of a finished job
 *   whose counted columns change, in any hour (the open hour is rolled too, so a delivery report
 *   a minute after the send concerns a rolled period). A mark of a whole-hour period stands for
 *   its hour. The WHEN clause still keeps finalise out: it only updates jobs not finished yet.
 */
export class DigestRollupOpenHour1764460800080 implements MigrationInterface {
  name = 'DigestRollupOpenHour1764460800080';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE job_rollup_state ADD COLUMN hours_through timestamptz`);
    await q.query(`UPDATE job_rollup_state SET hours_through = rolled_through`);
    await q.query(`
      CREATE OR REPLACE FUNCTION job_rollup_mark_dirty() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO job_rollup_dirty (hour) VALUES (to_timestamp(floor(extract(epoch FROM OLD.finished_at) / 300) * 300)) ON CONFLICT DO NOTHING;
        RETURN NULL;
      END $$`);
    await q.query(`DROP TRIGGER jobs_rollup_dirty ON jobs`);
    await q.query(`
      CREATE TRIGGER jobs_rollup_dirty AFTER UPDATE ON jobs FOR EACH ROW
        WHEN (OLD.finished_at IS NOT NULL
              AND (OLD.status, OLD.finished_at, OLD.sent_at, OLD.delivered_at, OLD.bounced_at, OLD.complained_at, OLD.error, OLD.provider)
                  IS DISTINCT FROM
                  (NEW.status, NEW.finished_at, NEW.sent_at, NEW.delivered_at, NEW.bounced_at, NEW.complained_at, NEW.error, NEW.provider))
        EXECUTE FUNCTION job_rollup_mark_dirty()`);
  }

  async down(q: QueryRunner): Promise<void> {
    // Back to whole hours only: forget the open periods (the old code reads them from jobs).
    await q.query(
      `DELETE FROM job_outcome_hourly o USING job_rollup_state s WHERE s.hours_through IS NOT NULL AND o.hour >= s.hours_through`,
    );
    await q.query(`UPDATE job_rollup_state SET rolled_through = hours_through`);
    await q.query(
      `INSERT INTO job_rollup_dirty (hour) SELECT DISTINCT date_trunc('hour', hour, 'UTC') FROM job_rollup_dirty ON CONFLICT DO NOTHING`,
    );
    await q.query(`DELETE FROM job_rollup_dirty WHERE hour <> date_trunc('hour', hour, 'UTC')`);
    await q.query(`
      CREATE OR REPLACE FUNCTION job_rollup_mark_dirty() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO job_rollup_dirty (hour) VALUES (date_trunc('hour', OLD.finished_at, 'UTC')) ON CONFLICT DO NOTHING;
        RETURN NULL;
      END $$`);
    await q.query(`DROP TRIGGER jobs_rollup_dirty ON jobs`);
    await q.query(`
      CREATE TRIGGER jobs_rollup_dirty AFTER UPDATE ON jobs FOR EACH ROW
        WHEN (OLD.finished_at IS NOT NULL
              AND OLD.finished_at < date_trunc('hour', now(), 'UTC')
              AND (OLD.status, OLD.finished_at, OLD.sent_at, OLD.delivered_at, OLD.bounced_at, OLD.complained_at, OLD.error, OLD.provider)
                  IS DISTINCT FROM
                  (NEW.status, NEW.finished_at, NEW.sent_at, NEW.delivered_at, NEW.bounced_at, NEW.complained_at, NEW.error, NEW.provider))
        EXECUTE FUNCTION job_rollup_mark_dirty()`);
    await q.query(`ALTER TABLE job_rollup_state DROP COLUMN hours_through`);
  }
}
