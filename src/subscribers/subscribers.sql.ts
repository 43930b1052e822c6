import { preparedSql } from '../database/prepared-sql.js';
const SUBSCRIBER_COLUMNS = `
  id, email, phone, first_name AS "firstName", last_name AS "lastName", locale, timezone, data,
  created_at AS "createdAt", updated_at AS "updatedAt"`;

/**
 * Upsert by (project, id). Each column has a "present" flag: absent keeps the stored value,
 * present (even null) replaces it. `data` is shallow-merged. xmax = 0 tells an insert apart.
 * No row back: the data, alone or merged, would be over $16 bytes of jsonb text (data-limit.ts),
 * and nothing was written; a call that brings no data is never refused for it (rows stored
 * before the bound stay updatable).
 */
export const UPSERT_SUBSCRIBER = `
  INSERT INTO subscribers AS s (project_id, id, email, phone, first_name, last_name, locale, timezone, data)
  SELECT $1, $2, $4::text, $6::text, $8::text, $10::text, $12::text, $14::text, $15::jsonb
   WHERE octet_length($15::jsonb::text) <= $16
  ON CONFLICT (project_id, id) DO UPDATE SET
    email      = CASE WHEN $3::boolean  THEN EXCLUDED.email      ELSE s.email END,
    phone      = CASE WHEN $5::boolean  THEN EXCLUDED.phone      ELSE s.phone END,
    first_name = CASE WHEN $7::boolean  THEN EXCLUDED.first_name ELSE s.first_name END,
    last_name  = CASE WHEN $9::boolean  THEN EXCLUDED.last_name  ELSE s.last_name END,
    locale     = CASE WHEN $11::boolean THEN EXCLUDED.locale     ELSE s.locale END,
    timezone   = CASE WHEN $13::boolean THEN EXCLUDED.timezone   ELSE s.timezone END,
    data       = s.data || EXCLUDED.data,
    updated_at = now()
  WHERE EXCLUDED.data = '{}'::jsonb OR octet_length((s.data || EXCLUDED.data)::text) <= $16
  RETURNING (xmax = 0) AS created`;

export const FIND_SUBSCRIBER = `SELECT ${SUBSCRIBER_COLUMNS} FROM subscribers WHERE project_id = $1 AND id = $2`;

/**
 * Keyset page ordered by id (the primary key serves it); $3 is an ILIKE pattern or null. $5 is
 * notifyd 0.x's deprecated offset (bounded to 100 000 by the DTO), 0 unless a caller pages by it.
 */
export const LIST_SUBSCRIBERS = `
  SELECT ${SUBSCRIBER_COLUMNS} FROM subscribers
   WHERE project_id = $1
     AND ($2::text IS NULL OR id > $2)
     AND ($3::text IS NULL OR id ILIKE $3 OR email ILIKE $3 OR first_name ILIKE $3 OR last_name ILIKE $3)
   ORDER BY id
   LIMIT $4 OFFSET $5`;

/** The `total` of notifyd 0.x's offset paging: the project's subscribers matching the search ($2, or null). */
export const COUNT_SUBSCRIBERS = `
  SELECT count(*)::int AS total FROM subscribers
   WHERE project_id = $1
     AND ($2::text IS NULL OR id ILIKE $2 OR email ILIKE $2 OR first_name ILIKE $2 OR last_name ILIKE $2)`;

export const DELETE_SUBSCRIBER = `DELETE FROM subscribers WHERE project_id = $1 AND id = $2`;

/**
 * Subscribers' token versions, which their subscriber tokens must carry (NULL, from before
 * versions existed, is generation 0); the primary key serves it.
 */
export const TOKEN_VERSIONS = `
  SELECT id, COALESCE(token_version, 0)::text AS version FROM subscribers WHERE project_id = $1 AND id = ANY($2::text[])`;

/** Ends every token of a subscriber: a version from the shared sequence, never used before; primary key. */
export const REVOKE_TOKENS = `
  UPDATE subscribers SET token_version = nextval('token_generations') WHERE project_id = $1 AND id = $2`;

/**
 * What enqueue needs of many subscribers (addresses, time zone, locale), in one probe of the
 * primary key. No timestamps: parsing 10 000 of them per batch call shows in the profile.
 */
export const FIND_ADDRESSES_BY_IDS = preparedSql(
  'notifyd_find_subscriber_addresses',
  `
  SELECT id, email, phone, locale, timezone, data FROM subscribers WHERE project_id = $1 AND id = ANY($2::text[])`,
);

/** Subscribers' profiles by id, for templates (`{{ subscriber.first_name }}`): the primary key serves it. */
export const FIND_PROFILES_BY_IDS = preparedSql(
  'notifyd_find_subscriber_profiles',
  `
  SELECT id, email, phone, first_name AS "firstName", last_name AS "lastName", locale, timezone, data
    FROM subscribers WHERE project_id = $1 AND id = ANY($2::text[])`,
);

/**
 * Bulk upsert in one statement. $2 is a jsonb object keyed by subscriber id (unique: the caller
 * folds repeats), each value holding only the fields given, as column names, plus `data`. A key
 * present in the value (even as null) replaces the column, an absent one keeps it: DO UPDATE
 * cannot see the SELECT's row, so it looks the id up in $2 again (a binary search of the jsonb
 * object's sorted keys). Rows go in id order, so concurrent bulk calls lock shared ids in the
 * same order and cannot deadlock each other. The primary key (project_id, id) serves the
 * conflict check. Answers the counts, not a row per subscriber, and the ids not written because
 * their data, alone or merged, would be over $3 bytes of jsonb text (as UPSERT_SUBSCRIBER).
 */
export const BULK_UPSERT_SUBSCRIBERS = `
  WITH written AS (
    INSERT INTO subscribers AS s (project_id, id, email, phone, first_name, last_name, locale, timezone, data)
    SELECT $1, i.key, i.value->>'email', i.value->>'phone', i.value->>'first_name', i.value->>'last_name',
           i.value->>'locale', i.value->>'timezone', i.value->'data'
      FROM jsonb_each($2::jsonb) AS i
     WHERE octet_length((i.value->'data')::text) <= $3
     ORDER BY i.key
    ON CONFLICT (project_id, id) DO UPDATE SET
      email      = CASE WHEN ($2::jsonb -> EXCLUDED.id) ? 'email'      THEN EXCLUDED.email      ELSE s.email END,
      phone      = CASE WHEN ($2::jsonb -> EXCLUDED.id) ? 'phone'      THEN EXCLUDED.phone      ELSE s.phone END,
      first_name = CASE WHEN ($2::jsonb -> EXCLUDED.id) ? 'first_name' THEN EXCLUDED.first_name ELSE s.first_name END,
      last_name  = CASE WHEN ($2::jsonb -> EXCLUDED.id) ? 'last_name'  THEN EXCLUDED.last_name  ELSE s.last_name END,
      locale     = CASE WHEN ($2::jsonb -> EXCLUDED.id) ? 'locale'     THEN EXCLUDED.locale     ELSE s.locale END,
      timezone   = CASE WHEN ($2::jsonb -> EXCLUDED.id) ? 'timezone'   THEN EXCLUDED.timezone   ELSE s.timezone END,
      data       = s.data || EXCLUDED.data,
      updated_at = now()
    WHERE EXCLUDED.data = '{}'::jsonb OR octet_length((s.data || EXCLUDED.data)::text) <= $3
    RETURNING s.id, (xmax = 0) AS created)
  SELECT count(*) FILTER (WHERE created)::int AS created, count(*) FILTER (WHERE NOT created)::int AS updated,
         ARRAY(SELECT k FROM jsonb_object_keys($2::jsonb) AS k EXCEPT SELECT id FROM written) AS "tooLarge"
    FROM written`;

/**
 * The subscribers a trace names, in one project or every project ($1 null): by id (primary key),
 * by email (subscribers_email_idx, lower-cased) or by phone (no index: a filter of the
 * project's rows, read only when the trace gives a phone number). Per project through LATERAL,
 * so every branch keeps project_id as its index's leading column.
 *   $1 project|null  $2 id|null  $3 email|null  $4 phone|null  $5 limit
 */
export const FIND_FOR_TRACE = `
  SELECT s.project_id AS "projectId", s.id, s.email, s.phone, s.locale, s.timezone, s.data
    FROM (SELECT id FROM projects WHERE $1::text IS NULL OR id = $1) AS p
   CROSS JOIN LATERAL (
     (SELECT project_id, id, email, phone, locale, timezone, data FROM subscribers WHERE project_id = p.id AND id = $2)
     UNION
     (SELECT project_id, id, email, phone, locale, timezone, data FROM subscribers WHERE $3::text IS NOT NULL AND project_id = p.id AND lower(email) = lower($3) AND email IS NOT NULL)
     UNION
     (SELECT project_id, id, email, phone, locale, timezone, data FROM subscribers WHERE $4::text IS NOT NULL AND project_id = p.id AND phone = $4)
   ) s
   ORDER BY s.project_id, s.id
   LIMIT $5`;
