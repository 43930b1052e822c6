import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * GET /v1/admin/audit filters by actor, action or target and pages newest first by id. The
 * audit log is append-only and written at the rate of state changes (not of sends), so a few
 * btree indexes cost little: each serves one filter in id order. created_at gets a BRIN for
 * since/until on the unfiltered listing.
 */
export class AuditLogFilters1764460800063 implements MigrationInterface {
  name = 'AuditLogFilters1764460800063';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX IF NOT EXISTS audit_log_actor_idx ON audit_log (actor, id DESC)`);
    await q.query(`CREATE INDEX IF NOT EXISTS audit_log_action_idx ON audit_log (action, id DESC)`);
    await q.query(
      `CREATE INDEX IF NOT EXISTS audit_log_resource_idx ON audit_log (resource, id DESC) WHERE resource IS NOT NULL`,
    );
    await q.query(`CREATE INDEX IF NOT EXISTS audit_log_created_at_brin ON audit_log USING brin (created_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS audit_log_created_at_brin`);
    await q.query(`DROP INDEX IF EXISTS audit_log_resource_idx`);
    await q.query(`DROP INDEX IF EXISTS audit_log_action_idx`);
    await q.query(`DROP INDEX IF EXISTS audit_log_actor_idx`);
  }
}
