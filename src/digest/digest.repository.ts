import { Injectable } from '@nestjs/common';
import { Db } from '../database/db.js';
import { AUTOVACUUM_BLOCKERS, type AutovacuumBlockerColumn } from './autovacuum-blockers.js';
import type { Band, DatabaseHealth, RetriesWaitingRow } from './digest.types.js';
import * as sql from './sql/digest.sql.js';
import * as windowSql from './sql/window.sql.js';
import { foldWindow, type WindowReading, type WindowRow } from './window-fold.js';

export interface QueueReading {
  pending: number;
  processing: number;
  retry: number;
  stuckProcessing: number;
  oldestWaitingSeconds: Record<Band, number | null>;
  retriesWaiting: RetriesWaitingRow[];
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
const HOUR_MS = 3_600_000;

/** All SQL of the digest (statements in sql/digest.sql.ts). */
@Injectable()
export class DigestRepository {
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

  /**
   * The window [since, now): rolled hours from job_outcome_hourly, the rest (the partial first
   * hour, the hours not rolled yet, the rolled hours changed since) from jobs, in one snapshot.
   */
  async window(since: Date): Promise<WindowReading> {
    const firstWholeHour = new Date(Math.ceil(since.getTime() / HOUR_MS) * HOUR_MS);
    const rows = await this.db.transaction(async (runner) => {
      await this.db.exec(windowSql.WINDOW_SNAPSHOT, [], runner);
      // The planner cannot tell how few groups the expressions make and would sort the window
      // (spilling at the default work_mem); with room for the hash it aggregates in one pass.
      await this.db.exec(windowSql.WINDOW_WORK_MEM, [], runner);
      const state = await this.db.one<{ rolled_through: Date | null; dirty: Date[] }>(windowSql.ROLLUP_STATE, [], runner);
      const rolledThrough = state?.rolled_through ? new Date(state.rolled_through) : null;
      // Rolled hours inside the window: [firstWholeHour, rolledEnd). Empty when the rollup is behind.
      const rolledEnd = rolledThrough && rolledThrough > firstWholeHour ? rolledThrough : firstWholeHour;
      const dirty = (state?.dirty ?? []).map((d) => new Date(d)).filter((d) => d >= firstWholeHour && d < rolledEnd);
      const dirtyFrom = dirty.length ? dirty[0] : rolledEnd;
      const dirtyTo = dirty.length ? new Date(dirty[dirty.length - 1].getTime() + HOUR_MS) : rolledEnd;
      return this.db.rows<WindowRow>(
        windowSql.WINDOW_ROWS,
        [since.toISOString(), firstWholeHour.toISOString(), rolledEnd.toISOString(), dirtyFrom.toISOString(), dirtyTo.toISOString(), dirty.map((d) => d.toISOString())],
        runner,
      );
    });
    return foldWindow(rows);
  }

  projects(): Promise<ProjectReading[]> {
    return this.db.rows<ProjectReading>(sql.PROJECTS);
  }

  async databaseHealth(): Promise<DatabaseHealth> {
    type Row = { live: number; dead: number; last_vacuum: Date | null; notify_lock_waiters: number } & Record<AutovacuumBlockerColumn, boolean>;
    const row = await this.db.one<Row>(sql.DATABASE_HEALTH);
    const live = row?.live ?? 0;
    const dead = row?.dead ?? 0;
    return {
      jobs_live_tuples: live,
      jobs_dead_tuples: dead,
      jobs_dead_percent: live + dead > 0 ? round((dead / (live + dead)) * 100, 2) : 0,
      jobs_last_autovacuum: iso(row?.last_vacuum),
      jobs_autovacuum_blocked_by: AUTOVACUUM_BLOCKERS.filter((b) => row?.[b.column]).map((b) => b.label),
      notify_lock_waiters: row?.notify_lock_waiters ?? 0,
    };
  }
}
