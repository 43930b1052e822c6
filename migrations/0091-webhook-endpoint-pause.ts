import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A circuit breaker per webhook endpoint, in the database so every replica obeys it:
 * `consecutive_failures` counts failed attempts in a row (any delivery; a success resets it) and
 * `paused_until`, set once that count reaches the threshold, holds the endpoint's deliveries
 * back (they stay queued, their attempts untouched) until one probe may go. Before this, an
 * endpoint that was down got the first attempt of every new event at once, for about a day,
 * until one delivery ran out of attempts and disabled it. Constant defaults: no table rewrite;
 * no index: the claim reads these columns by primary key for the endpoints of its batch only.
 */
export class WebhookEndpointPause1764460800091 implements MigrationInterface {
  name = 'WebhookEndpointPause1764460800091';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE webhook_endpoints
        ADD COLUMN consecutive_failures integer NOT NULL DEFAULT 0,
        ADD COLUMN paused_until timestamptz`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE webhook_endpoints DROP COLUMN IF EXISTS paused_until, DROP COLUMN IF EXISTS consecutive_failures`,
    );
  }
}
