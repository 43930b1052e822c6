/** The locale of the subscriber an email address belongs to (subscribers_email_idx). */
export const LOCALE_BY_EMAIL = `
  SELECT locale FROM subscribers WHERE project_id = $1 AND lower(email) = lower($2) AND locale IS NOT NULL LIMIT 1`;

/** The locale of the subscriber a phone number belongs to (SMS, WhatsApp links). */
export const LOCALE_BY_PHONE = `
  SELECT locale FROM subscribers WHERE project_id = $1 AND phone = $2 AND locale IS NOT NULL LIMIT 1`;
