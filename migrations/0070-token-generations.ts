import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Revocable subscriber tokens (issue 18): a subscriber JWT carries its subscriber's
 * `token_version` and its project's `token_epoch`, and every use compares them with the rows.
 *
 * Both come from one sequence, so a value is never given twice: a subscriber deleted and
 * created again, or a project deleted and created again with the same id, gets a value no
 * token has seen. An explicit revocation sets the subscriber's version to the next value.
 *
 * The columns are added without a default first, then given one: a volatile default on ADD
 * COLUMN would rewrite the subscribers table under an exclusive lock. Existing rows keep NULL,
 * which reads as generation 0, the generation of tokens minted before this migration (their
 * claims lack it), so those keep working until they expire (24 h at most) or are revoked.
 *
 * inbox_stream_tickets remember the generation they were issued under, so that a ticket taken
 * before a revocation does not open a stream after it.
 */
export class TokenGenerations1764460800070 implements MigrationInterface {
  name = 'TokenGenerations1764460800070';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE SEQUENCE token_generations AS bigint`);
    await q.query(`ALTER TABLE projects ADD COLUMN token_epoch bigint`);
    await q.query(`ALTER TABLE projects ALTER COLUMN token_epoch SET DEFAULT nextval('token_generations')`);
    await q.query(`ALTER TABLE subscribers ADD COLUMN token_version bigint`);
    await q.query(`ALTER TABLE subscribers ALTER COLUMN token_version SET DEFAULT nextval('token_generations')`);
    await q.query(`ALTER TABLE inbox_stream_tickets ADD COLUMN token_epoch bigint, ADD COLUMN token_version bigint`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE inbox_stream_tickets DROP COLUMN token_epoch, DROP COLUMN token_version`);
    await q.query(`ALTER TABLE subscribers DROP COLUMN token_version`);
    await q.query(`ALTER TABLE projects DROP COLUMN token_epoch`);
    await q.query(`DROP SEQUENCE token_generations`);
  }
}
