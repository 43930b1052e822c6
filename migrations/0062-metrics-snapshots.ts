import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * metrics_snapshots: gauges that cost a query (queue depth, oldest pending age per band, lane
 * pause totals), computed once per tick by one replica (periodic_runs) and read by every
 * replica's /v1/metrics/prometheus with one primary-key lookup. So a scrape never counts the
 * queue, and every replica reports the same cluster-wide value.
 */
export class MetricsSnapshots1764460800062 implements MigrationInterface {
  name = 'MetricsSnapshots1764460800062';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE metrics_snapshots (
        name         text PRIMARY KEY,
        value        jsonb NOT NULL,
        computed_at  timestamptz NOT NULL DEFAULT now()
      ) WITH (fillfactor = 50, autovacuum_vacuum_threshold = 200, autovacuum_vacuum_scale_factor = 0)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS metrics_snapshots`);
  }
}
