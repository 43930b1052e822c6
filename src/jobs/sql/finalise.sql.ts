import { preparedSql } from '../../database/prepared-sql.js';

/*
 * Finalisation: one statement per outcome kind for a whole claimed batch.
 *
 * Shape: $1 is one JSON object keyed by job id holding that job's values ({"a": attempts,
 * "p": provider, "m": message id, "e": error, "t": run_at}); the ids are its keys (read once,
 * an InitPlan), so they are not sent a second time as an array. There is deliberately no join:
 * joined to an unnest() of the values, the planner trusts the column statistics of `status`
 * (almost no row is ever 'processing' when ANALYZE runs), starts from a sequential scan of
 * jobs, and loops over the values for each row — quadratic. Here the only access path is the
 * primary key (`id = ANY(…keys…)`), and each row reads its values from $1.
 *
 * The fence (attempts, status) makes each write apply only to the claim that produced it: if
 * the reaper re-queued a job and another worker claimed it again, attempts moved on and this
 * stale outcome is dropped. A reaped job not yet re-claimed (status retry, same attempts) is
 * still finalised, which spares a duplicate send.
 */
export const V = `($1::jsonb -> j.id::text)`;
export const FENCE = `j.id = ANY(ARRAY(SELECT jsonb_object_keys($1::jsonb)::uuid)) AND j.attempts = (${V} ->> 'a')::int AND j.status IN ('processing','retry')`;

/**
 * A provider callback can beat this statement (Twilio reports a failure before the send call
 * returned): the job then already carries bounced_at and ends bounced, not sent.
 */
export const MARK_SENT = preparedSql(
  'notifyd_mark_sent',
  `
  UPDATE jobs j
     SET status = CASE WHEN j.bounced_at IS NOT NULL THEN 'bounced' ELSE 'sent' END, sent_at = now(), finished_at = now(),
         error = CASE WHEN j.bounced_at IS NOT NULL THEN j.error END, next_retry_at = NULL,
         provider = ${V} ->> 'p', provider_message_id = ${V} ->> 'm'
   WHERE ${FENCE}`,
);

/** Closed without a provider call (e.g. opted out at send time): sent with provider `skipped`. */
export const MARK_SKIPPED = preparedSql(
  'notifyd_mark_skipped',
  `
  UPDATE jobs j
     SET status = 'sent', sent_at = now(), finished_at = now(), provider = 'skipped', error = ${V} ->> 'e'
   WHERE ${FENCE}`,
);

/** Transient failure with attempts left: due again at "t". */
export const MARK_RETRY = preparedSql(
  'notifyd_mark_retry',
  `
  UPDATE jobs j
     SET status = 'retry', run_at = (${V} ->> 't')::timestamptz, next_retry_at = (${V} ->> 't')::timestamptz,
         error = ${V} ->> 'e', provider = ${V} ->> 'p'
   WHERE ${FENCE}`,
);

/**
 * Permanent failure, suppression, or attempts exhausted. "b": the provider refused the address
 * for good in its answer (a synchronous hard bounce, e.g. SMTP 550 5.1.1): the job ends bounced,
 * as a provider's bounce webhook would end it.
 */
export const MARK_FAILED = preparedSql(
  'notifyd_mark_failed',
  `
  UPDATE jobs j
     SET status = CASE WHEN (${V} ->> 'b') IS NULL THEN 'failed' ELSE 'bounced' END,
         bounced_at = CASE WHEN (${V} ->> 'b') IS NULL THEN j.bounced_at ELSE now() END,
         finished_at = now(), next_retry_at = NULL, error = ${V} ->> 'e', provider = ${V} ->> 'p'
   WHERE ${FENCE}`,
);

/**
 * Back to the queue without consuming an attempt: rate-limited (due when the pause ends) or
 * released unsent at shutdown (due now). A job never tried before returns to pending.
 * A null "e" keeps the previous error.
 */
export const REQUEUE = preparedSql(
  'notifyd_requeue',
  `
  UPDATE jobs j
     SET status = CASE WHEN j.attempts <= 1 THEN 'pending' ELSE 'retry' END,
         attempts = GREATEST(j.attempts - 1, 0),
         run_at = (${V} ->> 't')::timestamptz,
         next_retry_at = CASE WHEN j.attempts <= 1 THEN NULL ELSE (${V} ->> 't')::timestamptz END,
         claimed_at = NULL,
         error = COALESCE(${V} ->> 'e', j.error)
   WHERE ${FENCE}`,
);

/**
 * The attempts of a flushed batch that did not end in a send (retry, failed, rate_limited,
 * deferred), for the jobs' timelines: one row each, from one JSON array ($1) of
 * {j: job id, a: attempt, o: outcome, c: counted, p: provider, e: error, t: next time}.
 * A sent attempt is the job row itself, so a healthy batch never runs this.
 */
export const RECORD_ATTEMPTS = preparedSql(
  'notifyd_record_attempts',
  `
  INSERT INTO job_attempts (job_id, attempt, outcome, counted, provider, error, next_at)
  SELECT r.j, r.a, r.o, r.c, r.p, left(r.e, 1000), r.t
    FROM jsonb_to_recordset($1::jsonb) AS r(j uuid, a int, o text, c boolean, p text, e text, t timestamptz)`,
);
