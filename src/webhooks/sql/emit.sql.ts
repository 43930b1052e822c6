/*
 * Emitting an event queues one delivery per enabled endpoint of the project that subscribes to
 * it (by name or with `*`), in one statement for a whole set of events. No endpoint, no row:
 * the join over webhook_endpoints_fanout_idx costs one probe per project.
 */

const SUBSCRIBED = `e.project_id = ev.project_id AND e.enabled AND (ev.type = ANY(e.events) OR '*' = ANY(e.events))`;

/**
 * Free-form events. $1 project_id[] $2 type[] $3 data jsonb[] $4 occurred_at timestamptz[]
 * $5 max_attempts. Payload: Standard Webhooks' {type, timestamp, data}.
 */
export const EMIT_EVENTS = `
  INSERT INTO webhook_deliveries (endpoint_id, project_id, event_type, payload, max_attempts)
  SELECT e.id, ev.project_id, ev.type,
         jsonb_build_object('type', ev.type, 'timestamp', ev.at, 'data', ev.data), $5
    FROM unnest($1::text[], $2::text[], $3::jsonb[], $4::timestamptz[]) AS ev(project_id, type, data, at)
    JOIN webhook_endpoints e ON ${SUBSCRIBED}`;

/**
 * Job events: the data is the job's current row (read here, so callers pass ids only), plus
 * per-event extras. $1 job_id[] $2 type[] $3 extra jsonb[] $4 max_attempts. Jobs primary key.
 * The recipient address is left out on purpose: the subscriber id identifies the person, and
 * endpoints are often third-party automation tools.
 *
 * The worker calls this after every finalised batch, and most deployments have no endpoint for
 * job events: the uncorrelated EXISTS (stops at the first enabled endpoint that wants any of
 * these types) is a one-time filter, so then not one job row is read — it was a primary-key
 * probe and a jsonb build per job for nothing, ~10 % of the database's work in a drain. With
 * such an endpoint anywhere, the statement runs as before (per-project fan-out below).
 */
export const EMIT_JOB_EVENTS = `
  WITH ev AS (
    SELECT j.project_id, r.type,
           jsonb_build_object(
             'job_id', j.id, 'project_id', j.project_id, 'channel', j.channel,
             'subscriber_id', j.subscriber_id, 'status', j.status, 'topic', j.topic,
             'priority', j.priority, 'attempts', j.attempts, 'provider', j.provider,
             'provider_message_id', j.provider_message_id, 'error', j.error,
             'idempotency_key', j.idempotency_key, 'scheduled_at', j.scheduled_at,
             'created_at', j.created_at, 'sent_at', j.sent_at) || COALESCE(r.extra, '{}'::jsonb) AS data
      FROM unnest($1::uuid[], $2::text[], $3::jsonb[]) AS r(job_id, type, extra)
      JOIN jobs j ON j.id = r.job_id
     WHERE EXISTS (SELECT 1 FROM webhook_endpoints e WHERE e.enabled AND ('*' = ANY(e.events) OR e.events && $2::text[]))
  )
  INSERT INTO webhook_deliveries (endpoint_id, project_id, event_type, payload, max_attempts)
  SELECT e.id, ev.project_id, ev.type,
         jsonb_build_object('type', ev.type, 'timestamp', now(), 'data', ev.data)
           -- Endpoints imported from notifyd 0.x also get 0.x's top-level fields, so a receiver
           -- written for 0.x ({event, job_id, channel, subscriber_id, timestamp}) keeps working.
           || CASE WHEN e.signature_format = 'notifyd-0x' THEN jsonb_build_object(
                'event', ev.type, 'job_id', ev.data -> 'job_id', 'channel', ev.data -> 'channel',
                'subscriber_id', ev.data -> 'subscriber_id') ELSE '{}'::jsonb END, $4
    FROM ev JOIN webhook_endpoints e ON ${SUBSCRIBED}`;

/** Whether a project has an enabled endpoint for an event (batch enqueue asks before returning ids). */
export const WANTS_EVENT = `
  SELECT EXISTS (
    SELECT 1 FROM webhook_endpoints e
     WHERE e.project_id = $1 AND e.enabled AND ($2 = ANY(e.events) OR '*' = ANY(e.events))
  ) AS wanted`;
