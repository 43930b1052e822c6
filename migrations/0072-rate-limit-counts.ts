import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * rate_limit_counts: how many requests each process admitted per rate-limit scope (a project,
 * an operator key) in each one-minute window. A process counts in memory and, on a short tick,
 * writes its own rows (absolute counts, so a retried tick counts nothing twice) and reads the
 * others' sum: never a write per request, and no row is written by two processes.
 *
 * UNLOGGED: counts for a minute are not worth WAL; a crash empties the table, which forgives at
 * most the current minute. The rows of a process are updated in place every tick; fillfactor 50
 * keeps those updates HOT. Windows older than the previous one are deleted by the processes.
 */
export class RateLimitCounts1764460800072 implements MigrationInterface {
  name = 'RateLimitCounts1764460800072';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE UNLOGGED TABLE rate_limit_counts (
        scope         text NOT NULL,
        window_start  timestamptz NOT NULL,
        replica       uuid NOT NULL,
        admitted      integer NOT NULL,
        PRIMARY KEY (scope, window_start, replica)
      ) WITH (fillfactor = 50)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS rate_limit_counts`);
  }
}
