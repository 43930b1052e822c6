/**
 * The queue gauges, computed by one replica per tick: live jobs by status, how late the oldest
 * waiting job of each band is (urgent < 50, normal 50–79, bulk ≥ 80) — from scheduled_at, the
 * time its sender asked for, not run_at (a fair-share slot, a pause's end, a retry's back-off)
 * —, the worker processes alive (heartbeat younger than $1 seconds), every lane's pause total
 * and every failover breaker's totals. Served by jobs_claim_idx and jobs_processing_idx (live
 * rows only); worker_heartbeats, pacing_lanes and provider_breakers are a handful of rows.
 * Stored as one JSON document in metrics_snapshots.
 */
export const COMPUTE_QUEUE_GAUGES = `
  WITH live AS (
    SELECT status, priority, scheduled_at FROM jobs WHERE status IN ('pending','retry')
    UNION ALL
    SELECT status, priority, scheduled_at FROM jobs WHERE status = 'processing'
  )
  SELECT json_build_object(
    'depth', json_build_object(
      'pending',    count(*) FILTER (WHERE status = 'pending'),
      'retry',      count(*) FILTER (WHERE status = 'retry'),
      'processing', count(*) FILTER (WHERE status = 'processing')),
    'oldest', json_build_object(
      'urgent', COALESCE(extract(epoch FROM now() - min(scheduled_at) FILTER (WHERE status IN ('pending','retry') AND scheduled_at <= now() AND priority < 50)), 0),
      'normal', COALESCE(extract(epoch FROM now() - min(scheduled_at) FILTER (WHERE status IN ('pending','retry') AND scheduled_at <= now() AND priority >= 50 AND priority < 80)), 0),
      'bulk',   COALESCE(extract(epoch FROM now() - min(scheduled_at) FILTER (WHERE status IN ('pending','retry') AND scheduled_at <= now() AND priority >= 80)), 0)),
    'workers_alive', (SELECT count(*) FROM worker_heartbeats WHERE stopped_at IS NULL AND last_beat > now() - make_interval(secs => $1)),
    'lane_pauses', (SELECT COALESCE(json_agg(json_build_object('lane', lane_key, 'channel', channel, 'provider', provider, 'pauses', pauses_total)), '[]'::json)
                      FROM pacing_lanes),
    'failovers', (SELECT COALESCE(json_agg(json_build_object('lane', lane_key, 'channel', channel, 'from', provider, 'to', fallback_provider,
                                                             'trips', trips_total, 'moved', failovers_total, 'resting', resting_until > now())), '[]'::json)
                    FROM provider_breakers)
  ) AS value
  FROM live`;

/** Store a computed snapshot under its name ($1), replacing the previous one. */
export const SAVE_SNAPSHOT = `
  INSERT INTO metrics_snapshots (name, value, computed_at) VALUES ($1, $2::jsonb, now())
  ON CONFLICT (name) DO UPDATE SET value = EXCLUDED.value, computed_at = EXCLUDED.computed_at`;

/** A replica's scrape: one primary-key lookup. */
export const READ_SNAPSHOT = `
  SELECT value, extract(epoch FROM now() - computed_at)::float8 AS age_seconds FROM metrics_snapshots WHERE name = $1`;

/**
 * GET /v1/metrics (notifyd 0.x's JSON figures), counted when asked, across all projects:
 * live jobs by status (jobs_claim_idx, jobs_processing_idx), jobs finished as sent (bounced
 * after sending included) or failed in the last 24 h (jobs_finished_at_brin), subscribers and
 * inbox messages (whole-table counts: an operator's call, not a scrape target), and workflow
 * runs not finished (workflow_runs_claim_idx, workflow_runs_processing_idx).
 */
export const SUMMARY = `
  SELECT
    (SELECT count(*) FROM jobs WHERE status = 'pending')::int AS jobs_pending,
    (SELECT count(*) FROM jobs WHERE status = 'retry')::int AS jobs_retry,
    (SELECT count(*) FROM jobs WHERE status = 'processing')::int AS jobs_processing,
    (SELECT count(*) FROM jobs WHERE finished_at > now() - interval '24 hours' AND status IN ('sent','bounced') AND provider IS DISTINCT FROM 'skipped')::int AS jobs_sent_24h,
    (SELECT count(*) FROM jobs WHERE finished_at > now() - interval '24 hours' AND status = 'failed')::int AS jobs_failed_24h,
    (SELECT count(*) FROM subscribers)::int AS subscribers_total,
    (SELECT count(*) FROM inbox_messages)::int AS inbox_messages_total,
    (SELECT count(*) FROM workflow_runs WHERE status IN ('pending','processing','waiting'))::int AS active_workflow_runs`;
