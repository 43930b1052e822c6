import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Push device tokens (notifyd's `push_tokens`): one row per device a subscriber registered,
 * on one of three platforms. A web push row keeps the browser's PushSubscription (endpoint and
 * the p256dh/auth keys the payload is encrypted with); `token` is the endpoint for web push, the
 * FCM registration token or the APNs device token otherwise.
 *
 * The key to subscribers cascades: deleting a subscriber deletes their devices. A push job
 * reads every token of one subscriber (the unique key's (project_id, subscriber_id) prefix
 * serves it), and dead tokens are deleted by id when a provider says they are gone.
 */
export class PushTokens1764460800018 implements MigrationInterface {
  name = 'PushTokens1764460800018';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE push_tokens (
        id               uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        project_id       text NOT NULL,
        subscriber_id    text NOT NULL,
        token            text NOT NULL,
        platform         text NOT NULL CHECK (platform IN ('web', 'fcm', 'apns')),
        device_name      text,
        endpoint         text,
        p256dh           text,
        auth             text,
        expiration_time  bigint,
        user_agent       text,
        created_at       timestamptz NOT NULL DEFAULT now(),
        last_used_at     timestamptz NOT NULL DEFAULT now(),
        FOREIGN KEY (project_id, subscriber_id) REFERENCES subscribers (project_id, id) ON DELETE CASCADE,
        CONSTRAINT push_tokens_web_keys CHECK (platform <> 'web' OR (endpoint IS NOT NULL AND p256dh IS NOT NULL AND auth IS NOT NULL))
      )`);
    // Registration upserts on it; the fan-out reads a subscriber's devices through its prefix.
    await q.query(
      `CREATE UNIQUE INDEX push_tokens_subscriber_token_idx ON push_tokens (project_id, subscriber_id, token)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS push_tokens`);
  }
}
