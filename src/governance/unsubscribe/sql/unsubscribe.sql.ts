/** The locale of the subscriber an email address belongs to (subscribers_email_idx). */
export const LOCALE_BY_EMAIL = `
  SELECT locale FROM subscribers WHERE project_id = $1 AND lower(email) = lower($2) AND locale IS NOT NULL LIMIT 1`;

/** The locale of the subscriber a phone number belongs to (SMS, WhatsApp links). */
export const LOCALE_BY_PHONE = `
  SELECT locale FROM subscribers WHERE project_id = $1 AND phone = $2 AND locale IS NOT NULL LIMIT 1`;

/**
 * The subscribers an email address belongs to, for a topic opt-out (subscribers_email_idx).
 * No ORDER BY: with one the planner walks the primary key of the whole project instead.
 * Bounded: one address is one person, or a handful of records of them.
 */
export const SUBSCRIBERS_BY_EMAIL = `
  SELECT id FROM subscribers WHERE project_id = $1 AND lower(email) = lower($2) LIMIT 100`;

/** The subscribers a phone number belongs to (SMS, WhatsApp links; no index on phone, as LOCALE_BY_PHONE). */
export const SUBSCRIBERS_BY_PHONE = `
  SELECT id FROM subscribers WHERE project_id = $1 AND phone = $2 LIMIT 100`;
