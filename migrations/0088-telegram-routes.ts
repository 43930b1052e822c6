import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Per-user Telegram bots (issue 23, notifyd 0.x §2.15, its migration 024): an owner's own bot
 * (token and webhook secret sealed with NOTIFYD_SECRET_KEY, as project providers are), the chat
 * it delivers to, and the one-time link tokens that let a user pair a chat by starting the bot.
 * A credential's id is the route id sends name in chat.telegram_route_id.
 *
 * Reads: by (project, owner) for the routes (unique), by webhook connection id for Telegram's
 * updates (unique), by id for the worker (primary key), by token hash for a /start (partial
 * index on unconsumed tokens). A generation replaces the owner's earlier tokens, so the table
 * holds at most one row per credential.
 */
export class TelegramRoutes1764460800088 implements MigrationInterface {
  name = 'TelegramRoutes1764460800088';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE telegram_credentials (
        id                     uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        project_id             text NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
        owner                  text NOT NULL,
        bot_id                 bigint NOT NULL,
        bot_username           text NOT NULL,
        bot_token_sealed       text NOT NULL,
        token_hint             text NOT NULL,
        webhook_connection_id  uuid NOT NULL UNIQUE,
        webhook_secret_sealed  text NOT NULL,
        webhook_registered     boolean NOT NULL DEFAULT true,
        key_id                 text NOT NULL,
        created_at             timestamptz NOT NULL DEFAULT now(),
        updated_at             timestamptz NOT NULL DEFAULT now(),
        UNIQUE (project_id, owner)
      )`);
    await q.query(`
      CREATE TABLE telegram_destinations (
        id                  uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        project_id          text NOT NULL,
        owner               text NOT NULL,
        credential_id       uuid NOT NULL REFERENCES telegram_credentials (id) ON DELETE CASCADE,
        address             text NOT NULL,
        telegram_thread_id  bigint CHECK (telegram_thread_id > 0),
        verified            boolean NOT NULL DEFAULT false,
        created_at          timestamptz NOT NULL DEFAULT now(),
        UNIQUE (project_id, owner),
        UNIQUE (credential_id)
      )`);
    await q.query(`
      CREATE TABLE telegram_link_tokens (
        id             uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        project_id     text NOT NULL,
        owner          text NOT NULL,
        credential_id  uuid NOT NULL REFERENCES telegram_credentials (id) ON DELETE CASCADE,
        kind           text NOT NULL CHECK (kind IN ('private', 'group')),
        token_hash     text NOT NULL,
        expires_at     timestamptz NOT NULL,
        consumed_at    timestamptz,
        created_at     timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(
      `CREATE INDEX telegram_link_tokens_active_idx ON telegram_link_tokens (token_hash) WHERE consumed_at IS NULL`,
    );
    await q.query(`CREATE INDEX telegram_link_tokens_credential_idx ON telegram_link_tokens (credential_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS telegram_link_tokens`);
    await q.query(`DROP TABLE IF EXISTS telegram_destinations`);
    await q.query(`DROP TABLE IF EXISTS telegram_credentials`);
  }
}
