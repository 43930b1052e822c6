/*
 * Provider evidence: statements run in one transaction per event (find the job, record the
 * event once, apply its effect). The event row's primary key (provider, event_id) is the
 * dedup: a replay's INSERT … ON CONFLICT DO NOTHING returns nothing and nothing else runs. Ten
 * concurrent replays queue on that key; the first commits, the others see the conflict.
 */

/**
 * The jobs an event may be about: the one its job id hint names (primary key, rank 1; the
 * caller keeps it only if it holds the message id), and those holding the provider's message
 * id (jobs_provider_message_idx, rank 2). Up to two rank-2 rows are read so that a message id
 * shared by several jobs (one provider call for a batch) is recognised as ambiguous rather
 * than applied to an arbitrary one of them. $1 job id (uuid or null), $2 message id.
 */
export const FIND_JOB = `
  (SELECT id, project_id AS "projectId", channel, recipient, status, provider_message_id AS "providerMessageId", 1 AS rank
     FROM jobs WHERE id = $1::uuid)
  UNION ALL
  (SELECT id, project_id, channel, recipient, status, provider_message_id, 2
     FROM jobs WHERE $2::text IS NOT NULL AND provider_message_id = $2 LIMIT 2)`;

/** Row lock on the job found, taken before the effect (FOR UPDATE cannot sit on a UNION). */
export const LOCK_JOB = `SELECT 1 FROM jobs WHERE id = $1 FOR UPDATE`;

/** Records the event once. Returns a row only the first time (provider, event_id) is seen. */
export const INSERT_EVENT = `
  INSERT INTO provider_events (provider, event_id, project_id, job_id, event_type, provider_event_type,
                               provider_message_id, recipients, error, occurred_at, payload)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8::text[], $9, $10, $11)
  ON CONFLICT (provider, event_id) DO NOTHING
  RETURNING received_at AS "receivedAt"`;

/** delivered: stamped once (also on a failed or processing job, as notifyd does). */
export const MARK_DELIVERED = `
  UPDATE jobs SET delivered_at = $2 WHERE id = $1 AND delivered_at IS NULL RETURNING id`;

/**
 * bounced (hard bounce, final delivery failure): a sent job becomes bounced; a job still
 * processing keeps its status and the worker's MARK_SENT turns it bounced when it sees
 * bounced_at. First outcome wins: a second bounce changes nothing, and for SMS/WhatsApp a
 * failure after a delivery report is ignored (the handset had it). Email can bounce after
 * delivery (the receiving server accepted, then bounced), so it is not fenced by delivered_at.
 */
export const MARK_BOUNCED = `
  UPDATE jobs
     SET status = CASE WHEN status = 'sent' THEN 'bounced' ELSE status END,
         bounced_at = $2, error = $3
   WHERE id = $1 AND bounced_at IS NULL AND (channel = 'email' OR delivered_at IS NULL)
  RETURNING id`;

export const MARK_COMPLAINED = `
  UPDATE jobs SET complained_at = $2 WHERE id = $1 AND complained_at IS NULL RETURNING id`;

export const MARK_OPENED = `
  UPDATE jobs SET opened_at = $2 WHERE id = $1 AND opened_at IS NULL RETURNING id`;

export const MARK_CLICKED = `
  UPDATE jobs SET clicked_at = $2 WHERE id = $1 AND clicked_at IS NULL RETURNING id`;
