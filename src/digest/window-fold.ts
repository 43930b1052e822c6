import type { FailureCause, LatencyRow, OutcomeRow } from './digest.types.js';
import { LATENCY_BUCKETS_PER_E } from './sql/window.sql.js';

/** Length of the "YYYYMMDDHHMMSSffffff" stamp before the job id in WindowRow.newest. */
const NEWEST_STAMP_LENGTH = 20;

/**
 * One row of the window query (sql/window.sql.ts), from the rollup or from jobs. Two kinds:
 * outcome rows (project_id set, bucket null) and latency rows (project_id null, bucket set).
 * Every field adds up across rows, so rolled hours and edge hours fold the same way.
 */
export interface WindowRow {
  project_id: string | null;
  channel: string;
  provider: string | null;
  reason: string | null;
  bucket: number | null;
  sent: number;
  failed: number;
  bounced: number;
  cancelled: number;
  delivered_events: number;
  bounced_events: number;
  complained_events: number;
  n: number;
  last_finished_at: Date | string | null;
  /** "YYYYMMDDHHMMSSffffff" + job id of the newest failed job in the group. */
  newest: string | null;
}

export interface WindowReading {
  outcomes: OutcomeRow[];
  failures: FailureCause[];
  latency: LatencyRow[];
  delivered: number;
  bounced: number;
  complained: number;
  perProject: Record<string, { sent: number; failed: number }>;
  lastFinishedAt: string | null;
}

/**
 * p50/p95 from the log-scale histogram: the percentile's bucket, reported at its geometric
 * middle (so within about 2.5 % of the exact value).
 */
export function latencyOf(channel: string, histogram: { bucket: number; n: number }[]): LatencyRow {
  const sorted = [...histogram].sort((a, b) => a.bucket - b.bucket);
  const total = sorted.reduce((n, b) => n + b.n, 0);
  const at = (p: number) => {
    const rank = Math.ceil(p * total);
    let seen = 0;
    for (const b of sorted) {
      seen += b.n;
      if (seen >= rank) return Math.max(0, Math.exp((b.bucket + 0.5) / LATENCY_BUCKETS_PER_E) - 0.001);
    }
    return 0;
  };
  return { channel, p50_seconds: round(at(0.5), 3), p95_seconds: round(at(0.95), 3), samples: total };
}

/** Projects listed per failure cause (the count is exact). */
const MAX_CAUSE_PROJECTS = 20;

/** Folds the window's rows into outcomes, per-project counts, the top 10 causes, p50/p95 and evidence. */
export function foldWindow(rows: readonly WindowRow[]): WindowReading {
  const outcomes = new Map<string, OutcomeRow>();
  const perProject: Record<string, { sent: number; failed: number }> = {};
  const histograms = new Map<string, { bucket: number; n: number }[]>();
  const causes = new Map<string, Omit<FailureCause, 'projects'> & { newest: string; projectSet: Set<string> }>();
  let delivered = 0;
  let bounced = 0;
  let complained = 0;
  let lastFinished: Date | null = null;
  for (const r of rows) {
    if (r.project_id === null) {
      if (r.bucket !== null && r.n > 0) {
        const h = histograms.get(r.channel) ?? [];
        h.push({ bucket: r.bucket, n: r.n });
        histograms.set(r.channel, h);
      }
      continue;
    }
    const provider = r.provider ?? 'none';
    const key = `${r.channel}\u0000${provider}`;
    const o = outcomes.get(key) ?? { channel: r.channel, provider, sent: 0, failed: 0, bounced: 0, cancelled: 0 };
    o.sent += r.sent;
    o.failed += r.failed;
    o.bounced += r.bounced;
    o.cancelled += r.cancelled;
    outcomes.set(key, o);
    const p = (perProject[r.project_id] ??= { sent: 0, failed: 0 });
    p.sent += r.sent;
    p.failed += r.failed;
    delivered += r.delivered_events;
    bounced += r.bounced_events;
    complained += r.complained_events;
    const finished = r.last_finished_at ? new Date(r.last_finished_at) : null;
    if (finished && (!lastFinished || finished > lastFinished)) lastFinished = finished;
    if (r.reason !== null && r.failed > 0) {
      const causeKey = `${r.channel}\u0000${r.reason}`;
      const c = causes.get(causeKey) ?? {
        channel: r.channel,
        reason: r.reason,
        count: 0,
        project_ids: [],
        sample_job_id: '',
        last_seen: '',
        newest: '',
        projectSet: new Set<string>(),
      };
      c.count += r.failed;
      c.projectSet.add(r.project_id);
      if ((r.newest ?? '') > c.newest) {
        c.newest = r.newest!;
        c.sample_job_id = r.newest!.slice(NEWEST_STAMP_LENGTH);
        c.last_seen = finished?.toISOString() ?? '';
      }
      causes.set(causeKey, c);
    }
  }
  const failures = [...causes.values()].map(({ channel, reason, count, projectSet, sample_job_id, last_seen }) => ({
    channel,
    reason,
    count,
    project_ids: [...projectSet].sort().slice(0, MAX_CAUSE_PROJECTS),
    projects: projectSet.size,
    sample_job_id,
    last_seen,
  }));
  return {
    outcomes: [...outcomes.values()]
      .filter((o) => o.sent + o.failed + o.bounced + o.cancelled > 0)
      .sort((a, b) => a.channel.localeCompare(b.channel) || a.provider.localeCompare(b.provider)),
    failures: failures.sort((a, b) => b.count - a.count || b.last_seen.localeCompare(a.last_seen)).slice(0, 10),
    latency: [...histograms.entries()]
      .map(([channel, h]) => latencyOf(channel, h))
      .sort((a, b) => a.channel.localeCompare(b.channel)),
    delivered,
    bounced,
    complained,
    perProject,
    lastFinishedAt: lastFinished?.toISOString() ?? null,
  };
}

const round = (v: number, digits: number) => Math.round(v * 10 ** digits) / 10 ** digits;
