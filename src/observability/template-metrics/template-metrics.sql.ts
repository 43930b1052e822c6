/**
 * The email delivery funnel per template × time bucket over a window (notifyd's
 * /admin/metrics/templates). A job's template key is its template_id, else its `template` tag,
 * else its `category` tag, else 'untemplated'. The window is a range of jobs_created_at_brin.
 * $1 window seconds, $2 'hour' | 'day', $3 project id or null.
 */
export const TEMPLATE_FUNNEL = `
  WITH scoped AS (
    SELECT date_trunc($2, j.created_at) AS bucket,
           COALESCE(
             j.template_id,
             (SELECT t ->> 'value' FROM jsonb_array_elements(CASE WHEN jsonb_typeof(j.payload -> 'tags') = 'array' THEN j.payload -> 'tags' ELSE '[]'::jsonb END) t
               WHERE t ->> 'name' = 'template' LIMIT 1),
             (SELECT t ->> 'value' FROM jsonb_array_elements(CASE WHEN jsonb_typeof(j.payload -> 'tags') = 'array' THEN j.payload -> 'tags' ELSE '[]'::jsonb END) t
               WHERE t ->> 'name' = 'category' LIMIT 1),
             'untemplated') AS template,
           j.status, j.sent_at, j.delivered_at, j.bounced_at, j.complained_at, j.opened_at, j.clicked_at
      FROM jobs j
     WHERE j.channel = 'email'
       AND j.created_at >= now() - make_interval(secs => $1::float8)
       AND ($3::text IS NULL OR j.project_id = $3)
  )
  SELECT template, bucket,
         count(*) FILTER (WHERE sent_at IS NOT NULL)::int AS sent,
         count(*) FILTER (WHERE status = 'failed')::int AS failed,
         count(delivered_at)::int AS delivered,
         count(*) FILTER (WHERE bounced_at IS NOT NULL OR status = 'bounced')::int AS bounced,
         count(complained_at)::int AS complained,
         count(opened_at)::int AS opened,
         count(clicked_at)::int AS clicked
    FROM scoped
   GROUP BY template, bucket
   ORDER BY bucket DESC, template
   LIMIT 5000`;
