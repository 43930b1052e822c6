import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * job_contents: what the worker rendered for a job (a stored template, or inline content with
 * Liquid markup), so that GET /v1/jobs/:id and job_timeline show what was actually sent
 * (issue 26). One row per job, rewritten on each attempt; each part bounded by the writer
 * (src/jobs/content/). Deleted with its job (ON DELETE CASCADE): the job's retention is the
 * content's. Jobs whose inline content holds no markup have no row: their payload is what was
 * sent. A project with `settings.rendered_content = "redact"` has no rows at all.
 */
export class JobContents1764460800082 implements MigrationInterface {
  name = 'JobContents1764460800082';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE job_contents (
        job_id       uuid PRIMARY KEY REFERENCES jobs (id) ON DELETE CASCADE,
        subject      text,
        body         text,
        body_html    text,
        truncated    boolean NOT NULL DEFAULT false,
        rendered_at  timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS job_contents`);
  }
}
