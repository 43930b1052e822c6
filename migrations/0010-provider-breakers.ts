import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Failover breakers, shared by every replica: one row per primary lane (channel × provider, ×
 * project for a project's own provider) that has ever failed over. `resting_until` in the future
 * means the primary rests and its traffic goes to the fallback; a trip extends it, never
 * shortens it. The digest and metrics read this table (FailoverBreaker.breakerStates()). A
 * handful of rows updated on trips only: no index beyond the key.
 */
export class ProviderBreakers1764460800010 implements MigrationInterface {
  name = 'ProviderBreakers1764460800010';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE provider_breakers (
        lane_key          text PRIMARY KEY,
        channel           text NOT NULL,
        provider          text NOT NULL,
        project_id        text,
        fallback_provider text NOT NULL,
        resting_until     timestamptz NOT NULL,
        trips_total       bigint NOT NULL DEFAULT 0,
        failovers_total   bigint NOT NULL DEFAULT 0,
        last_tripped_at   timestamptz NOT NULL DEFAULT now(),
        last_reason       text
      ) WITH (fillfactor = 70)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS provider_breakers`);
  }
}
