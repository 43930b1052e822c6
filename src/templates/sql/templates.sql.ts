const TEMPLATE_COLUMNS = `
  id, channel, locale, subject, body, body_html AS "bodyHtml", topic, created_at AS "createdAt", updated_at AS "updatedAt"`;

/** Create or replace one variant (project × id × channel × locale); xmax = 0 tells an insert apart. Primary key. */
export const UPSERT_TEMPLATE = `
  INSERT INTO templates AS t (project_id, id, channel, locale, subject, body, body_html, topic)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
  ON CONFLICT (project_id, id, channel, locale) DO UPDATE SET
    subject = EXCLUDED.subject, body = EXCLUDED.body, body_html = EXCLUDED.body_html,
    topic = EXCLUDED.topic, updated_at = now()
  RETURNING (xmax = 0) AS created`;

/** How many variants the project has (of one channel, or all): a page's total. Primary key prefix. */
export const COUNT_TEMPLATES = `
  SELECT count(*)::int AS total FROM templates WHERE project_id = $1 AND ($2::text IS NULL OR channel = $2)`;

/**
 * A page of a project's variants in (id, channel, locale) order after the keyset cursor
 * ($5, $6, $7), each row carrying the filter's total (COUNT_TEMPLATES, run once: a window
 * count would see only the rows after the cursor). No cursor is ('', '', ''), before every
 * row: ids are never empty. $4 is the deprecated offset, 0 unless a caller still pages by it.
 * The primary key (project_id, id, channel, locale) serves the equality, the row comparison
 * and the order.
 */
export const LIST_TEMPLATES = `
  SELECT ${TEMPLATE_COLUMNS}, (${COUNT_TEMPLATES}) AS total
    FROM templates
   WHERE project_id = $1 AND ($2::text IS NULL OR channel = $2)
     AND (id, channel, locale) > ($5::text, $6::text, $7::text)
   ORDER BY id, channel, locale
   LIMIT $3 OFFSET $4`;

/** Every variant of one template; primary key prefix (project_id, id). */
export const FIND_TEMPLATE = `
  SELECT ${TEMPLATE_COLUMNS} FROM templates WHERE project_id = $1 AND id = $2 ORDER BY channel, locale`;

/**
 * The channels each of many templates of one project has variants for (any locale), one row per
 * template that exists: a workflow's reference check reads all its steps' templates at once.
 * Primary key (project_id, id, channel, locale): $2's ids probed by the key prefix, index-only.
 */
export const TEMPLATE_CHANNELS = `
  SELECT id, array_agg(DISTINCT channel) AS channels
    FROM templates WHERE project_id = $1 AND id = ANY($2::text[])
   GROUP BY id`;

/**
 * What a send naming a template needs: whether it exists and its topic (the first variant with
 * one, in FIND_TEMPLATE's order), without reading the bodies. Primary key prefix (project_id, id).
 */
export const TEMPLATE_FOR_SEND = `
  SELECT EXISTS (SELECT 1 FROM templates WHERE project_id = $1 AND id = $2) AS found,
         (SELECT topic FROM templates WHERE project_id = $1 AND id = $2 AND topic IS NOT NULL
           ORDER BY channel, locale LIMIT 1) AS topic`;

/** Deletes a template's variants: all, one channel's, or one locale's. Primary key prefix. */
export const DELETE_TEMPLATE = `
  DELETE FROM templates
   WHERE project_id = $1 AND id = $2 AND ($3::text IS NULL OR channel = $3) AND ($4::text IS NULL OR locale = $4)`;

/**
 * Every variant of many (project, template id) pairs: the worker's
 * once-per-batch prefetch. One primary-key probe per distinct pair.
 */
export const VARIANTS_FOR_KEYS = `
  SELECT t.project_id AS "projectId", t.id, t.channel, t.locale, t.subject, t.body, t.body_html AS "bodyHtml",
         t.topic, t.created_at AS "createdAt", t.updated_at AS "updatedAt"
    FROM unnest($1::text[], $2::text[]) AS k(project_id, id)
    JOIN templates t ON t.project_id = k.project_id AND t.id = k.id`;
