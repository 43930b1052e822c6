import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Which queued deliveries an endpoint's pause holds back. When a probe succeeds, the deliveries
 * the pause held are due at once; before this, "held" was read off run_at (due again within the
 * pause), which also released a retry the receiver itself had put off with Retry-After. The claim
 * sets the flag on the rows it defers (and the sender on those it gives back unattempted), and
 * clears it on the rows it claims. Constant default: no table rewrite; no index: the recovery
 * reads one endpoint's queued rows by webhook_deliveries_endpoint_idx or the claim index's window.
 */
export class WebhookHeldByPause1764460800093 implements MigrationInterface {
  name = 'WebhookHeldByPause1764460800093';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE webhook_deliveries ADD COLUMN held_by_pause boolean NOT NULL DEFAULT false`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE webhook_deliveries DROP COLUMN IF EXISTS held_by_pause`);
  }
}
