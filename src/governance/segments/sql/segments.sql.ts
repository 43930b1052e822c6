/*
 * Statements over one project's subscribers that match a compiled segment. `where` comes only
 * from compileSegment (whitelisted fragments with $n placeholders, values bound); $1 is always
 * the project id, so each scan is bounded to the project by the primary key (project_id, id).
 */

/** How many subscribers match. */
export const countMatching = (where: string) => `
  SELECT count(*)::int AS count FROM subscribers WHERE project_id = $1 AND (${where})`;

/** The first ten matching ids, oldest subscribers first (notifyd's order). */
export const sampleMatching = (where: string) => `
  SELECT id FROM subscribers WHERE project_id = $1 AND (${where}) ORDER BY created_at, id LIMIT 10`;

/**
 * One keyset page of matching ids after $after, in id order: a range scan of the primary key
 * (project_id, id), so page 200 costs what page 1 costs and nothing is held between pages.
 */
export const pageMatching = (where: string, after: number) => `
  SELECT id FROM subscribers
   WHERE project_id = $1 AND (${where}) AND id > $${after}
   ORDER BY id
   LIMIT $${after + 1}`;
