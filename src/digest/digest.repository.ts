import { Injectable } from '@nestjs/common';
import { Db } from '../database/db.js';
import type {
  Band,
  DatabaseHealth,
  FailureCause,
  LatencyRow,
  OutcomeRow,
  RetriesWaitingRow,
} from './digest.types.js';
import * as sql from './sql/digest.sql.js';

export interface QueueReading {
  pending: number;
  processing: number;
  retry: number;
  stuckProcessing: number;
  oldestWaitingSeconds: Record<Band, number | null>;
  retriesWaiting: RetriesWaitingRow[];
}

export interface WindowReading {
  outcomes: OutcomeRow[];
  failures: FailureCause[];
  latency: LatencyRow[];
  delivered: number;
  bounced: number;
  /** null when jobs has no complained_at column. */
  complained: number | null;
  perProject: Record<string, { sent: number; failed: number }>;
  lastFinishedAt: string | null;
}

export interface ProjectReading {
  id: string;
  name: string;
  channels: string[];
  from_email: string | null;
  from_name: string | null;
  rate_limit_per_min: number;
}

/** Length of the "YYYYMMDDHHMMSSffffff" stamp before the job id in WindowRow.newest. */
const NEWEST_STAMP_LENGTH = 20;

interface WindowRow {
  project_id: string;
  channel: string;
  provider: string;
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
  last_finished_at: Date | null;
  /** "YYYYMMDDHHMMSSffffff" + job id of the newest finished job in the group. */
  newest: string | null;
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
      if (seen >= rank) return Math.max(0, Math.exp((b.bucket + 0.5) / sql.LATENCY_BUCKETS_PER_E) - 0.001);
    }
    return 0;
  };
  return { channel, p50_seconds: round(at(0.5), 3), p95_seconds: round(at(0.95), 3), samples: total };
}

const seconds = (v: number | null | undefined) => (v === null || v === undefined ? null : Math.max(0, Math.round(v)));
const iso = (v: string | Date | null | undefined) => (v ? new Date(v).toISOString() : null);
const round = (v: number, digits: number) => Math.round(v * 10 ** digits) / 10 ** digits;

/** All SQL of the digest (statements in sql/digest.sql.ts). */
@Injectable()
export class DigestRepository {
  /** Decided once per process: a column appears only through a migration, which needs a restart. */
  private complaintColumn: Promise<boolean> | undefined;

  constructor(private readonly db: Db) {}

  async queue(leaseSeconds: number): Promise<QueueReading> {
    const row = await this.db.one<{
      pending: number; processing: number; retry: number; stuck_processing: number;
      urgent: number | null; normal: number | null; bulk: number | null;
      retries_waiting: { channel: string; attempts: number; count: number; next_retry_at: string | null }[];
    }>(sql.QUEUE_SNAPSHOT, [leaseSeconds]);
    return {
      pending: row?.pending ?? 0,
      processing: row?.processing ?? 0,
      retry: row?.retry ?? 0,
      stuckProcessing: row?.stuck_processing ?? 0,
      oldestWaitingSeconds: { urgent: seconds(row?.urgent), normal: seconds(row?.normal), bulk: seconds(row?.bulk) },
      retriesWaiting: (row?.retries_waiting ?? []).map((r) => ({ ...r, next_retry_at: iso(r.next_retry_at) })),
    };
  }

  async window(since: Date): Promise<WindowReading> {
    const complaints = await this.hasComplaintColumn();
    const rows = await this.db.transaction(async (runner) => {
      // The planner cannot tell how few groups the expressions make and would sort the whole
      // window (spilling at the default work_mem); with room for the hash it aggregates in one pass.
      await this.db.exec(sql.WINDOW_WORK_MEM, [], runner);
      return this.db.rows<WindowRow>(complaints ? sql.WINDOW_STATS_WITH_COMPLAINTS : sql.WINDOW_STATS, [since.toISOString()], runner);
    });
    const outcomes = new Map<string, OutcomeRow>();
    const perProject: Record<string, { sent: number; failed: number }> = {};
    const histograms = new Map<string, { bucket: number; n: number }[]>();
    const failures: FailureCause[] = [];
    let delivered = 0;
    let bounced = 0;
    let complained = 0;
    let lastFinished: Date | null = null;
    const causes = new Map<string, FailureCause & { newest: string }>();
    for (const r of rows) {
      const key = `${r.channel}\u0000${r.provider}`;
      const o = outcomes.get(key) ?? { channel: r.channel, provider: r.provider, sent: 0, failed: 0, bounced: 0, cancelled: 0 };
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
      if (r.last_finished_at && (!lastFinished || r.last_finished_at > lastFinished)) lastFinished = r.last_finished_at;
      if (r.reason !== null && r.failed > 0) {
        const causeKey = `${r.channel}\u0000${r.reason}`;
        const c = causes.get(causeKey) ?? { channel: r.channel, reason: r.reason, count: 0, sample_job_id: '', last_seen: '', newest: '' };
        c.count += r.failed;
        if ((r.newest ?? '') > c.newest) {
          c.newest = r.newest!;
          c.sample_job_id = r.newest!.slice(NEWEST_STAMP_LENGTH);
          c.last_seen = iso(r.last_finished_at) ?? '';
        }
        causes.set(causeKey, c);
      }
      if (r.bucket !== null) {
        const h = histograms.get(r.channel) ?? [];
        h.push({ bucket: r.bucket, n: r.n });
        histograms.set(r.channel, h);
      }
    }
    for (const c of causes.values()) failures.push({ channel: c.channel, reason: c.reason, count: c.count, sample_job_id: c.sample_job_id, last_seen: c.last_seen });
    return {
      outcomes: [...outcomes.values()].filter((o) => o.sent + o.failed + o.bounced + o.cancelled > 0).sort((a, b) => a.channel.localeCompare(b.channel) || a.provider.localeCompare(b.provider)),
      failures: failures.sort((a, b) => b.count - a.count || b.last_seen.localeCompare(a.last_seen)).slice(0, 10),
      latency: [...histograms.entries()].map(([channel, h]) => latencyOf(channel, h)).sort((a, b) => a.channel.localeCompare(b.channel)),
      delivered,
      bounced,
      complained: complaints ? complained : null,
      perProject,
      lastFinishedAt: iso(lastFinished),
    };
  }

  projects(): Promise<ProjectReading[]> {
    return this.db.rows<ProjectReading>(sql.PROJECTS);
  }

  async databaseHealth(): Promise<DatabaseHealth> {
    const row = await this.db.one<{ live: number; dead: number; last_vacuum: Date | null; notify_lock_waiters: number }>(sql.DATABASE_HEALTH);
    const live = row?.live ?? 0;
    const dead = row?.dead ?? 0;
    return {
      jobs_live_tuples: live,
      jobs_dead_tuples: dead,
      jobs_dead_percent: live + dead > 0 ? round((dead / (live + dead)) * 100, 2) : 0,
      jobs_last_autovacuum: iso(row?.last_vacuum),
      notify_lock_waiters: row?.notify_lock_waiters ?? 0,
    };
  }

  private hasComplaintColumn(): Promise<boolean> {
    this.complaintColumn ??= this.db.one<{ present: boolean }>(sql.HAS_COMPLAINT_COLUMN).then(
      (r) => !!r?.present,
      (err: unknown) => {
        this.complaintColumn = undefined; // ask again next time
        throw err;
      },
    );
    return this.complaintColumn;
  }
}
