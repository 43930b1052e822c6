import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * worker_heartbeats: one row per worker process (NOTIFYD_ROLE=worker or all), upserted every
 * few seconds by the process itself (src/jobs/heartbeat/), marked stopped on a graceful stop,
 * deleted a week after its last beat. The digest and GET /v1/health read it to tell whether
 * any worker is alive: job activity cannot say so (a queue with nothing due looks the same
 * with or without a worker). A handful of rows rewritten in place: no index beside the
 * primary key and fillfactor 50 keep every beat a HOT update, and the tiny table is vacuumed
 * after a few hundred dead rows.
 */
export class WorkerHeartbeats1764460800079 implements MigrationInterface {
  name = 'WorkerHeartbeats1764460800079';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE worker_heartbeats (
        id          uuid PRIMARY KEY,
        role        text NOT NULL,
        host        text NOT NULL,
        pid         integer NOT NULL,
        version     text NOT NULL,
        started_at  timestamptz NOT NULL,
        last_beat   timestamptz NOT NULL,
        stopped_at  timestamptz
      ) WITH (fillfactor = 50, autovacuum_vacuum_threshold = 200, autovacuum_vacuum_scale_factor = 0)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS worker_heartbeats`);
  }
}
