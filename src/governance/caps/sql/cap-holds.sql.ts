/**
 * Enqueue's count, per cap of each (project, subscriber) pair in $1/$2 for a job due at $3
 * (null = now; a past time counts as now): the ledger's sends within the window before that
 * time, as the worker will count them, plus the holds of jobs accepted but not yet sent —
 * live (pending, retry, processing) and not yet in the ledger — due within one window either
 * side of it. Either side because an accepted job due a little later will still need its slot:
 * the answer never promises a slot twice. Holds of jobs holding an idempotency key in $4 are
 * left out, so a retried request finds its own job (deduplicated) instead of being refused
 * because of it. clock_timestamp(), not now(): the statement runs after the subscriber lock
 * was granted, and jobs committed while waiting for it may be due a moment after now().
 * Probes recipient_cap_sends_subscriber_idx and recipient_cap_holds_subscriber_idx once per
 * pair and cap, and jobs' primary key once per hold in range.
 */
export const COUNT_USAGE_AT_ENQUEUE = `
  WITH k AS (
    SELECT DISTINCT project_id, subscriber_id, greatest(coalesce(at, clock_timestamp()), clock_timestamp()) AS at
      FROM unnest($1::text[], $2::text[], $3::timestamptz[]) AS u(project_id, subscriber_id, at))
  SELECT c.id AS "capId", k.subscriber_id AS "subscriberId",
         max(
           (SELECT count(*) FROM recipient_cap_sends s
             WHERE s.project_id = k.project_id AND s.subscriber_id = k.subscriber_id
               AND s.sent_at > k.at - make_interval(secs => c.window_seconds)
               AND (c.channel = '*' OR s.channel = c.channel)
               AND (c.topic = '*' OR s.topic = c.topic))
         + (SELECT count(*) FROM recipient_cap_holds h
              JOIN jobs j ON j.id = h.job_id AND j.status IN ('pending','retry','processing')
             WHERE h.project_id = k.project_id AND h.subscriber_id = k.subscriber_id
               AND h.due_at < k.at + make_interval(secs => c.window_seconds)
               AND greatest(h.due_at, clock_timestamp()) > k.at - make_interval(secs => c.window_seconds)
               AND (c.channel = '*' OR h.channel = c.channel)
               AND (c.topic = '*' OR h.topic = c.topic)
               AND (j.idempotency_key IS NULL OR j.idempotency_key <> ALL($4::text[]))
               AND NOT EXISTS (SELECT 1 FROM recipient_cap_sends s WHERE s.job_id = h.job_id))
         )::int AS used
    FROM k JOIN recipient_caps c ON c.project_id = k.project_id
   GROUP BY c.id, k.subscriber_id`;

/** Holds a cap slot for each job just accepted (same transaction as its insert). */
export const RECORD_HOLDS = `
  INSERT INTO recipient_cap_holds (job_id, project_id, subscriber_id, channel, topic, due_at)
  SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::text[], $6::timestamptz[])
  ON CONFLICT (job_id) DO NOTHING`;

/**
 * Drops holds older than the longest allowed window (31 days) whose due time has passed too,
 * a slice at a time (recipient_cap_holds_created_at_brin narrows the scan).
 */
export const PURGE_OLD_HOLDS = `
  DELETE FROM recipient_cap_holds
   WHERE job_id = ANY(ARRAY(
     SELECT job_id FROM recipient_cap_holds
      WHERE created_at < now() - interval '32 days' AND due_at < now() - interval '32 days'
      LIMIT $1))`;
