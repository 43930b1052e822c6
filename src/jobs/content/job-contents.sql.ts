/**
 * What the worker rendered, one row per job, rewritten on each attempt: one statement for a
 * whole claimed batch (unnest of the parts). The primary key serves the conflict.
 */
export const SAVE_JOB_CONTENTS = `
  INSERT INTO job_contents AS c (job_id, subject, body, body_html, truncated)
  SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::boolean[])
  ON CONFLICT (job_id) DO UPDATE
     SET subject = EXCLUDED.subject, body = EXCLUDED.body, body_html = EXCLUDED.body_html,
         truncated = EXCLUDED.truncated, rendered_at = now()`;

/** One job's rendered content, by primary key. */
export const FIND_JOB_CONTENT = `
  SELECT subject, body, body_html AS "bodyHtml", truncated, rendered_at AS "renderedAt"
    FROM job_contents WHERE job_id = $1`;
