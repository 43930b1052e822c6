import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * jobs.created_by: who queued a job, so that an operator can tell which key (or caller) sent
 * it and filter by it: the hint of the project key (`sk_shop_…1f2e`, never the key), `admin`
 * or `mcp` for an operator's send-test and MCP sends, `workflow` for a workflow's step. NULL
 * on jobs queued before this column. A nullable column without a default: adding it rewrites
 * nothing, and the insert pays one more text value per row.
 */
export class JobCreatedBy1764460800083 implements MigrationInterface {
  name = 'JobCreatedBy1764460800083';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE jobs ADD COLUMN created_by text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE jobs DROP COLUMN IF EXISTS created_by`);
  }
}
