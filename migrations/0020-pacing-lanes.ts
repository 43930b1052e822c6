import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Pacing state shared by every replica.
 *
 * pacing_lanes: one row per lane (channel × provider, × project where the project has its own
 * credentials). The token bucket is kept as a GCRA "theoretical arrival time" (tat): a call of
 * cost c at rate r may go at max(now, tat − (burst − c)/r) and moves tat on by c/r. One
 * UPDATE per provider call takes the row lock, reserves the slot and reads the pause, so N
 * replicas together never exceed rate + burst. The table holds a handful of rows that are
 * updated constantly: fillfactor 50 and no index on the columns that change keep every update
 * HOT, and the tiny table is vacuumed on the first few hundred dead rows.
 *
 * pacing_fair_clocks: per project × channel × priority, the virtual time up to which the
 * project's enqueued jobs already use the lane. New due jobs are spaced from there at the
 * lane's rate, so the claim order (priority, run_at) interleaves projects (fair share).
 */
export class PacingLanes1764460800020 implements MigrationInterface {
  name = 'PacingLanes1764460800020';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE pacing_lanes (
        lane_key         text PRIMARY KEY,
        channel          text NOT NULL,
        provider         text NOT NULL,
        project_id       text,
        rate             double precision NOT NULL DEFAULT 0 CHECK (rate >= 0),
        burst_secs       double precision NOT NULL DEFAULT 1 CHECK (burst_secs >= 0),
        tat              timestamptz NOT NULL DEFAULT now(),
        adaptive_rate    double precision CHECK (adaptive_rate > 0),
        adaptive_until   timestamptz,
        quota_remaining  double precision,
        quota_limit      double precision,
        quota_reset_at   timestamptz,
        paused_until     timestamptz,
        pause_kind       text CHECK (pause_kind IN ('rate_limited','quota_exhausted','quota_headers','operator')),
        pause_reason     text,
        paused_at        timestamptz,
        pauses_total     bigint NOT NULL DEFAULT 0,
        calls_total      bigint NOT NULL DEFAULT 0,
        tokens_total     double precision NOT NULL DEFAULT 0,
        waited_ms_total  double precision NOT NULL DEFAULT 0,
        updated_at       timestamptz NOT NULL DEFAULT now()
      ) WITH (fillfactor = 50, autovacuum_vacuum_threshold = 200, autovacuum_vacuum_scale_factor = 0)`);
    await q.query(`
      CREATE TABLE pacing_fair_clocks (
        project_id  text NOT NULL,
        channel     text NOT NULL,
        priority    smallint NOT NULL,
        next_at     timestamptz NOT NULL,
        PRIMARY KEY (project_id, channel, priority)
      ) WITH (fillfactor = 70, autovacuum_vacuum_threshold = 200, autovacuum_vacuum_scale_factor = 0)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS pacing_fair_clocks`);
    await q.query(`DROP TABLE IF EXISTS pacing_lanes`);
  }
}
