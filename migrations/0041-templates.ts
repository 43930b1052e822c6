import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Stored templates: one row per project × template id × channel × locale. The default variant
 * of a channel has locale '' (not NULL, so that it takes part in the primary key); a send
 * picks the recipient's locale, then its language, then the default (`es-MX` → `es` → '').
 */
export class Templates1764460800041 implements MigrationInterface {
  name = 'Templates1764460800041';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE templates (
        project_id  text NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
        id          text NOT NULL,
        channel     text NOT NULL,
        locale      text NOT NULL DEFAULT '',
        subject     text,
        body        text NOT NULL,
        body_html   text,
        topic       text,
        created_at  timestamptz NOT NULL DEFAULT now(),
        updated_at  timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (project_id, id, channel, locale)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS templates`);
  }
}
