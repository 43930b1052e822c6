import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Chat bindings (issue 18): the Telegram chats and Slack channels an operator allows a project
 * to reach through the instance-wide bots. Read at enqueue (one project, its chats) and once
 * per claimed batch (the batch's project × chat pairs): both by the primary key.
 */
export class ChatBindings1764460800076 implements MigrationInterface {
  name = 'ChatBindings1764460800076';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE chat_bindings (
        project_id  text NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
        channel     text NOT NULL CHECK (channel IN ('telegram', 'slack')),
        chat        text NOT NULL,
        created_at  timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (project_id, channel, chat)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS chat_bindings`);
  }
}
