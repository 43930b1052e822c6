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
    const row = await this.db.one<{
      outcomes: OutcomeRow[];
      failures: (Omit<FailureCause, 'last_seen'> & { last_seen: string | null })[];
      latency: LatencyRow[];
      delivered: number; bounced: number; complained: number;
      per_project: Record<string, { sent: number; failed: number }>;
      last_finished_at: Date | null;
    }>(complaints ? sql.WINDOW_STATS_WITH_COMPLAINTS : sql.WINDOW_STATS, [since.toISOString()]);
    return {
      outcomes: row?.outcomes ?? [],
      failures: (row?.failures ?? []).map((f) => ({ ...f, last_seen: iso(f.last_seen) ?? '' })),
      latency: (row?.latency ?? []).map((l) => ({ ...l, p50_seconds: round(l.p50_seconds, 3), p95_seconds: round(l.p95_seconds, 3) })),
      delivered: row?.delivered ?? 0,
      bounced: row?.bounced ?? 0,
      complained: complaints ? (row?.complained ?? 0) : null,
      perProject: row?.per_project ?? {},
      lastFinishedAt: iso(row?.last_finished_at),
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
