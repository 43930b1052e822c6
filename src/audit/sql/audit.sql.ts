/** The filters LIST_AUDIT and COUNT_AUDIT share: $1 actor … $6 until, null = no filter. */
const MATCHES_FILTERS = `($1::text IS NULL OR actor = $1)
     AND ($2::text IS NULL OR action = $2)
     AND ($3::text IS NULL OR resource = $3)
     AND ($4::text IS NULL OR project_id = $4)
     AND ($5::timestamptz IS NULL OR created_at >= $5)
     AND ($6::timestamptz IS NULL OR created_at < $6)`;

/**
 * The audit log, newest first, every filter in SQL: $1 actor, $2 action, $3 target (resource),
 * $4 project, $5 since, $6 until (null = no filter), $7 cursor (rows with a smaller id), $8
 * limit, $9 notifyd 0.x's deprecated offset (0 unless a caller pages by it). A single filter is
 * served by its (column, id DESC) index; created_at by BRIN.
 */
export const LIST_AUDIT = `
  SELECT id::text AS id, project_id, actor, action, resource, metadata, ip, created_at
    FROM audit_log
   WHERE ${MATCHES_FILTERS}
     AND ($7::bigint IS NULL OR id < $7)
   ORDER BY audit_log.id DESC  -- the bigint, not the text alias
   LIMIT $8 OFFSET $9`;

/**
 * The `total` of notifyd 0.x's offset paging (deprecated): the lines matching the same filters
 * as LIST_AUDIT ($1–$6), counted by the same indexes.
 */
export const COUNT_AUDIT = `
  SELECT count(*)::int AS total
    FROM audit_log
   WHERE ${MATCHES_FILTERS}`;

/** Writes one audit line. */
export const INSERT_AUDIT = `
  INSERT INTO audit_log (project_id, actor, action, resource, metadata, ip) VALUES ($1, $2, $3, $4, $5, $6)`;

/** One audit line: $1 project (null for instance-wide changes), $2 actor, $3 action, $4 resource, $5 metadata, $6 client IP. */
export const AUDIT_INSERT = `INSERT INTO audit_log (project_id, actor, action, resource, metadata, ip) VALUES ($1, $2, $3, $4, $5, $6)`;
