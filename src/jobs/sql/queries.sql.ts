export const JOB_COLUMNS = `
  id, project_id AS "projectId", channel, subscriber_id AS "subscriberId", recipient, created_by AS "createdBy",
  template_id AS "templateId", topic, payload, status, priority, scheduled_at AS "scheduledAt",
  run_at AS "runAt", next_retry_at AS "nextRetryAt", attempts, max_attempts AS "maxAttempts",
  claimed_at AS "claimedAt", idempotency_key AS "idempotencyKey", provider,
  provider_message_id AS "providerMessageId", error, created_at AS "createdAt", sent_at AS "sentAt",
  delivered_at AS "deliveredAt", bounced_at AS "bouncedAt", opened_at AS "openedAt", clicked_at AS "clickedAt",
  complained_at AS "complainedAt"`;

/** One job of one project ($2 null = any project, for operators). */
export const FIND_JOB = `
  SELECT ${JOB_COLUMNS} FROM jobs WHERE id = $1 AND ($2::text IS NULL OR project_id = $2)`;

/**
 * A job's provider evidence (delivered, bounced, complained… from provider webhooks), oldest
 * first. provider_events_job_idx (job_id, received_at).
 */
export const JOB_PROVIDER_EVENTS = `
  SELECT provider, provider_event_type AS "providerType", event_type AS "kind",
         COALESCE(occurred_at, received_at) AS "occurredAt", provider_message_id AS "providerMessageId",
         recipients, error
    FROM provider_events WHERE job_id = $1
   ORDER BY received_at, event_id
   LIMIT 100`;

/**
 * A job's attempts that did not end in a send (the worker records them: retry, failed,
 * rate_limited, deferred), oldest first. job_attempts_job_idx (job_id, id).
 */
export const JOB_ATTEMPTS = `
  SELECT at, attempt, outcome, counted, provider, error, next_at AS "nextAt"
    FROM job_attempts WHERE job_id = $1
   ORDER BY id
   LIMIT 200`;

/** Cancel a job that has not been claimed; returns nothing when it is not cancellable. */
export const CANCEL_JOB = `
  UPDATE jobs SET status = 'cancelled', finished_at = now(), next_retry_at = NULL
   WHERE id = $1 AND ($2::text IS NULL OR project_id = $2) AND status IN ('pending','retry')
  RETURNING id`;

/**
 * Re-queue a failed or cancelled job with fresh attempts. Its idempotency key becomes live
 * again: if a newer job took the key meanwhile, the unique index refuses (23505) and the
 * service answers 409.
 */
export const RETRY_JOB = `
  UPDATE jobs
     SET status = 'retry', attempts = 0, run_at = now(), next_retry_at = now(), claimed_at = NULL,
         finished_at = NULL, error = concat_ws(' ', error, '[retried manually]')
   WHERE id = $1 AND ($2::text IS NULL OR project_id = $2) AND status IN ('failed','cancelled')
  RETURNING id, project_id AS "projectId", channel, status`;

/**
 * Operators' search across projects, newest first. created_at >= $6 lets the BRIN index skip
 * old pages; recipient matches exactly, case-insensitively; $8 the recipient's domain
 * (after the @), case-insensitively; $9 who queued the job (created_by). $10/$11: the keyset
 * cursor (the last row's created_at and id; null for the first page), so a long listing is read
 * page by page.
 */
export const SEARCH_JOBS = `
  SELECT ${JOB_COLUMNS}, created_at::text AS "createdKey" FROM jobs
   WHERE created_at >= $6
     AND ($1::text IS NULL OR project_id = $1)
     AND ($2::text IS NULL OR status = $2)
     AND ($3::text IS NULL OR channel = $3)
     AND ($4::text IS NULL OR lower(recipient) = lower($4))
     AND ($5::text IS NULL OR topic = $5)
     AND ($8::text IS NULL OR lower(split_part(recipient, '@', 2)) = lower($8))
     AND ($9::text IS NULL OR created_by = $9)
     AND ($10::timestamptz IS NULL OR (created_at, id) < ($10::timestamptz, $11::uuid))
   ORDER BY created_at DESC, id DESC
   LIMIT $7`;
