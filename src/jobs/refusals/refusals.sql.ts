/*
 * send_refusals (migration 0087): what admission refused, for the recipient trace. Written once
 * per request that refused something; read by project and address or subscriber; purged by
 * the retention task.
 */

/**
 * The refused targets of one request in one statement (unnest of parallel arrays).
 *   $1 project  $2 channels  $3 recipients ('' when none)  $4 subscriber ids  $5 rules
 *   $6 details  $7 batch id|null  $8 created_by|null
 */
export const INSERT_REFUSALS = `
  INSERT INTO send_refusals (project_id, channel, recipient, subscriber_id, rule, detail, batch_id, created_by)
  SELECT $1, r.channel, r.recipient, r.subscriber_id, r.rule, r.detail, $7::uuid, $8
    FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[]) AS r(channel, recipient, subscriber_id, rule, detail)`;

/**
 * The refusals of some addresses or subscribers of the given projects in a time range, newest
 * first. One probe of send_refusals_recipient_idx or send_refusals_subscriber_idx per project
 * (the LATERAL keeps the project as the leading column, so an operator's trace across every
 * project probes each project's entries rather than scanning the table).
 *   $1 project id|null (every project)  $2 lower-cased addresses  $3 subscriber ids  $4 since  $5 until  $6 limit
 */
export const TRACE_REFUSALS = `
  SELECT r.id::text AS id, r.project_id AS "projectId", r.created_at AS "createdAt", r.channel, r.recipient,
         r.subscriber_id AS "subscriberId", r.rule, r.detail, r.batch_id AS "batchId", r.created_by AS "createdBy"
    FROM (SELECT id FROM projects WHERE $1::text IS NULL OR id = $1) AS p
   CROSS JOIN LATERAL (
     (SELECT * FROM send_refusals
       WHERE project_id = p.id AND recipient <> '' AND lower(recipient) = ANY($2::text[])
         AND created_at >= $4 AND created_at < $5
       ORDER BY created_at DESC LIMIT $6)
     UNION
     (SELECT * FROM send_refusals
       WHERE project_id = p.id AND subscriber_id IS NOT NULL AND subscriber_id = ANY($3::text[])
         AND created_at >= $4 AND created_at < $5
       ORDER BY created_at DESC LIMIT $6)
   ) r
   ORDER BY r.created_at DESC, r.id DESC
   LIMIT $6`;

/**
 * Retention: refusals older than the cutoff, at most $2 per statement (send_refusals_created_brin
 * narrows the scan to old pages).
 */
export const PURGE_REFUSALS = `
  DELETE FROM send_refusals
   WHERE id = ANY(ARRAY(SELECT id FROM send_refusals WHERE created_at < $1 LIMIT $2))`;
