import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * periodic_runs: one row per periodic task (reaper, retention, digest notification, metrics
 * gauges). A replica runs a task only after winning the row's tick with one conditional
 * UPDATE (last_run_at older than the interval), so each tick runs once across any number of
 * replicas — not merely "not at the same time", which an advisory lock alone would give — and
 * a restart does not run it again early. A handful of rows updated in place: fillfactor 50
 * keeps the updates HOT.
 */
export class PeriodicRuns1764460800061 implements MigrationInterface {
  name = 'PeriodicRuns1764460800061';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE periodic_runs (
        task         text PRIMARY KEY,
        last_run_at  timestamptz NOT NULL,
        run_by       text NOT NULL,
        runs         bigint NOT NULL DEFAULT 0,
        last_ok      boolean,
        last_error   text,
        finished_at  timestamptz
      ) WITH (fillfactor = 50, autovacuum_vacuum_threshold = 200, autovacuum_vacuum_scale_factor = 0)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS periodic_runs`);
  }
}
