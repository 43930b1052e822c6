import { foldWindow, type WindowReading, type WindowRow } from '../../src/digest/window-fold.js';
import type { TestDatabase } from './test-database.js';

/**
 * The digest's window query as it was before the hourly rollup (main at 618fb4f), kept as the
 * reference the rollup must agree with: one pass over the jobs created or finished since $1.
 */
const WINDOW_STATS_BEFORE_ROLLUP = `
  WITH w AS (
    SELECT project_id, channel, COALESCE(provider, 'none') AS provider, status, finished_at,
           CASE WHEN status = 'failed' THEN to_char(finished_at AT TIME ZONE 'UTC', 'YYYYMMDDHH24MISSUS') || id::text END AS newest,
           delivered_at >= $1 AS delivered, bounced_at >= $1 AS bounced, complained_at >= $1 AS complained,
           COALESCE(finished_at, sent_at, created_at) >= $1 AS done,
           CASE WHEN status = 'failed' AND COALESCE(finished_at, created_at) >= $1 THEN
             left(regexp_replace(regexp_replace(COALESCE(NULLIF(error, ''), 'no error recorded'),
               '[^\\s<>"'',;:()]+@([^\\s<>"'',;:()]+)', '<*@\\1>', 'g'),
               '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}|[0-9]{4,}|(?<![0-9])[06-9][0-9]{2}(?![0-9])', '#', 'g'), 160)
           END AS reason,
           CASE WHEN sent_at >= scheduled_at AND sent_at >= $1 THEN
             floor(ln(date_part('epoch', sent_at - scheduled_at) + 0.001) * 20)::int
           END AS bucket
      FROM jobs
     WHERE created_at >= $1 OR finished_at >= $1
  )
  SELECT project_id, channel, provider, reason, bucket,
         count(*) FILTER (WHERE done AND status = 'sent')::int      AS sent,
         count(*) FILTER (WHERE done AND status = 'failed')::int    AS failed,
         count(*) FILTER (WHERE done AND status = 'bounced')::int   AS bounced,
         count(*) FILTER (WHERE done AND status = 'cancelled')::int AS cancelled,
         count(*) FILTER (WHERE delivered)::int                     AS delivered_events,
         count(*) FILTER (WHERE bounced)::int                       AS bounced_events,
         count(*) FILTER (WHERE complained)::int                    AS complained_events,
         count(*)::int AS n,
         max(finished_at) AS last_finished_at,
         max(newest) AS newest
    FROM w
   GROUP BY project_id, channel, provider, reason, bucket`;

/**
 * The window since `since` as the old query read it, folded by today's fold. An old row held
 * both its outcome counts and its latency bucket; it becomes one row of each kind.
 */
export async function windowBeforeRollup(db: TestDatabase, since: string): Promise<WindowReading> {
  const rows = (await db.sql(WINDOW_STATS_BEFORE_ROLLUP, [since])) as unknown as WindowRow[];
  const split = rows.flatMap((r) => {
    const outcome: WindowRow = { ...r, bucket: null };
    const latency: WindowRow = {
      ...r,
      project_id: null,
      provider: null,
      reason: null,
      sent: 0,
      failed: 0,
      bounced: 0,
      cancelled: 0,
      delivered_events: 0,
      bounced_events: 0,
      complained_events: 0,
      last_finished_at: null,
      newest: null,
    };
    return r.bucket === null ? [outcome] : [outcome, latency];
  });
  return foldWindow(split);
}
