import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * console_sessions: the operator console's sign-ins (src/console/). A row per session, keyed by
 * the SHA-256 of the cookie's random token (the token itself is never stored), with the role it
 * was made from and the SHA-256 of that key, so a session dies with a changed ADMIN_API_KEY or
 * READONLY_API_KEY. Sign-out deletes the row on every replica at once; expired rows are deleted
 * at the next sign-in (console_sessions_expires_idx serves that).
 */
export class ConsoleSessions1764460800081 implements MigrationInterface {
  name = 'ConsoleSessions1764460800081';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE console_sessions (
        token_hash  text PRIMARY KEY,
        role        text NOT NULL CHECK (role IN ('admin', 'readonly')),
        key_hash    text NOT NULL,
        created_at  timestamptz NOT NULL DEFAULT now(),
        expires_at  timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX console_sessions_expires_idx ON console_sessions (expires_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS console_sessions`);
  }
}
