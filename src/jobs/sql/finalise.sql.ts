/*
 * Finalisation: one statement per outcome kind for a whole claimed batch.
 *
 * The fence (id, attempts) makes each write apply only to the claim that produced it: if the
 * reaper re-queued a job and another worker claimed it again, attempts moved on and this
 * stale outcome is dropped. A reaped job not yet re-claimed (status retry, same attempts) is
 * still finalised, which spares a duplicate send.
 */
const FENCE = `j.id = r.id AND j.attempts = r.attempts AND j.status IN ('processing','retry')`;

/** $1 id[]  $2 attempts[]  $3 provider[]  $4 provider_message_id[] */
export const MARK_SENT = `
  UPDATE jobs j
     SET status = 'sent', sent_at = now(), finished_at = now(), error = NULL, next_retry_at = NULL,
         provider = r.provider, provider_message_id = r.mid
    FROM unnest($1::uuid[], $2::int[], $3::text[], $4::text[]) AS r(id, attempts, provider, mid)
   WHERE ${FENCE}`;

/** Closed without a provider call (e.g. opted out at send time): sent with provider `skipped`. $3 reason[] */
export const MARK_SKIPPED = `
  UPDATE jobs j
     SET status = 'sent', sent_at = now(), finished_at = now(), provider = 'skipped', error = r.reason
    FROM unnest($1::uuid[], $2::int[], $3::text[]) AS r(id, attempts, reason)
   WHERE ${FENCE}`;

/** Transient failure with attempts left: due again at run_at. $3 provider[] $4 error[] $5 run_at[] */
export const MARK_RETRY = `
  UPDATE jobs j
     SET status = 'retry', run_at = r.run_at, next_retry_at = r.run_at, error = r.error, provider = r.provider
    FROM unnest($1::uuid[], $2::int[], $3::text[], $4::text[], $5::timestamptz[]) AS r(id, attempts, provider, error, run_at)
   WHERE ${FENCE}`;

/** Permanent failure, suppression, or attempts exhausted. $3 provider[] $4 error[] */
export const MARK_FAILED = `
  UPDATE jobs j
     SET status = 'failed', finished_at = now(), next_retry_at = NULL, error = r.error, provider = r.provider
    FROM unnest($1::uuid[], $2::int[], $3::text[], $4::text[]) AS r(id, attempts, provider, error)
   WHERE ${FENCE}`;

/**
 * Back to the queue without consuming an attempt: rate-limited (due when the pause ends) or
 * released unsent at shutdown (due now). A job never tried before returns to pending.
 * $3 error[] (null keeps the previous error)  $4 run_at[]
 */
export const REQUEUE = `
  UPDATE jobs j
     SET status = CASE WHEN j.attempts <= 1 THEN 'pending' ELSE 'retry' END,
         attempts = GREATEST(j.attempts - 1, 0),
         run_at = r.run_at,
         next_retry_at = CASE WHEN j.attempts <= 1 THEN NULL ELSE r.run_at END,
         claimed_at = NULL,
         error = COALESCE(r.error, j.error)
    FROM unnest($1::uuid[], $2::int[], $3::text[], $4::timestamptz[]) AS r(id, attempts, error, run_at)
   WHERE ${FENCE}`;
