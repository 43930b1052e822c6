import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An inbox stream ends when the subscriber token that opened it expires, also when it was opened
 * with a stream ticket: the ticket remembers the expiry of the token it was minted from
 * (`token_expires_at`), and expires with that token if it comes first. NULL: a ticket minted
 * with the project key (its stream does not expire), or one issued before this migration (it
 * lives INBOX_TICKET_TTL_SECS at most, and its stream is left as before). A nullable column
 * without a default: no table rewrite.
 */
export class StreamTicketTokenExpiry1764460800090 implements MigrationInterface {
  name = 'StreamTicketTokenExpiry1764460800090';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE inbox_stream_tickets ADD COLUMN token_expires_at timestamptz`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE inbox_stream_tickets DROP COLUMN token_expires_at`);
  }
}
