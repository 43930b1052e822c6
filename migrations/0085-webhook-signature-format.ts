import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * webhook_endpoints.signature_format: 'standard' (Standard Webhooks headers, every endpoint
 * so far) or 'notifyd-0x', which adds notifyd 0.x's `X-Notifyd-Signature: hex(HMAC-SHA256(secret,
 * body))` so a receiver written for 0.x keeps verifying after `notifyd import notifyd-0x`
 * (issue 23). A constant default: no table rewrite.
 */
export class WebhookSignatureFormat1764460800085 implements MigrationInterface {
  name = 'WebhookSignatureFormat1764460800085';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE webhook_endpoints
        ADD COLUMN signature_format text NOT NULL DEFAULT 'standard'
        CHECK (signature_format IN ('standard', 'notifyd-0x'))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE webhook_endpoints DROP COLUMN IF EXISTS signature_format`);
  }
}
