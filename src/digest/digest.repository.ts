import { Injectable } from '@nestjs/common';
import type { QueryRunner } from 'typeorm';
import { Db } from '../database/db.js';
import { AUTOVACUUM_BLOCKERS, type AutovacuumBlockerColumn } from './autovacuum-blockers.js';
import type { Band, DatabaseHealth, RetriesWaitingRow, RetryingRow, WaitingRow } from './digest.types.js';
import type { DigestProjectDto } from './dto/digest.dto.js';
import * as sql from './sql/digest.sql.js';
import * as windowSql from './sql/window.sql.js';
import { foldWindow, type WindowReading, type WindowRow } from './window-fold.js';
import { windowPlan } from './window-plan.js';

export interface QueueReading {
  pending: number;
  processing: number;
  retry: number;
  stuckProcessing: number;
  due: number;
  late: number;
  oldestWaitingSeconds: Record<Band, number | null>;
  waiting: WaitingRow[];
  retrying: RetryingRow[];
  retriesWaiting: RetriesWaitingRow[];
}

/** One row of LIVE_QUEUE; grouping_set says which of its three groupings it belongs to. */
interface LiveRow {
  grouping_set: number;
  channel: string;
  project_id: string | null;
  band: Band | null;
  provider: string | null;
  attempts: number | null;
  pending: number;
  retry: number;
  due: number;
  late: number;
  oldest_late_at: Date | null;
  next_retry_at: Date | null;
  newest_retry_id: string | null;
}

/** GROUPING(band, provider, attempts) of LIVE_QUEUE's three grouping sets. */
const BY_PROJECT_BAND = 3;
const BY_PROVIDER = 5;
const BY_ATTEMPTS = 6;
const MAX_PROJECTS_LISTED = 50;
/** Retry jobs whose errors are normalised into causes (RETRY_REASONS): the regular expressions cost per row. */
export const RETRY_REASON_SAMPLE = 200;
const MAX_CAUSES_LISTED = 5;

/** A project's own fields, as the digest's project entries show them. */
export type ProjectReading = Pick<
  DigestProjectDto,
  'id' | 'name' | 'channels' | 'from_email' | 'from_name' | 'rate_limit_per_min'
>;

const iso = (v: string | Date | null | undefined) => (v ? new Date(v).toISOString() : null);
const round = (v: number, digits: number) => Math.round(v * 10 ** digits) / 10 ** digits;

/** All SQL of the digest (statements in sql/digest.sql.ts). */
@Injectable()
export class DigestRepository {
  constructor(private readonly db: Db) {}

  /**
   * The instance now, on one connection (a digest read takes few of the pool's: right after a
   * burst each fresh one costs its catalog lookups): the projects and the database's statistics,
   * then the live queue — pending and retry jobs grouped three ways (LIVE_QUEUE), the processing
   * ones, the sampled retry causes — folded into totals, per-channel waiting, what is retrying
   * and the retry backlog.
   */
  async now(
    leaseSeconds: number,
    now = Date.now(),
  ): Promise<{ queue: QueueReading; projects: ProjectReading[]; database: DatabaseHealth }> {
    const { live, processing, reasons, projects, database } = await this.db.transaction(async (runner) => {
      const projects = await this.db.rows<ProjectReading>(sql.PROJECTS, [], runner);
      const database = await this.databaseHealth(runner);
      await this.db.exec(sql.LIVE_QUEUE_PLAN, [], runner);
      const rows = await this.db.rows<LiveRow>(sql.LIVE_QUEUE, [], runner);
      return {
        live: rows,
        processing: await this.db.one<{ processing: number; stuck_processing: number }>(
          sql.PROCESSING,
          [leaseSeconds],
          runner,
        ),
        reasons: rows.some((r) => r.retry > 0)
          ? await this.db.rows<{ channel: string; provider: string; reason: string; count: number }>(
              sql.RETRY_REASONS,
              [RETRY_REASON_SAMPLE],
              runner,
            )
          : [],
        projects,
        database,
      };
    });
    return { queue: this.foldLive(live, processing, reasons, now), projects, database };
  }

  private foldLive(
    live: LiveRow[],
    processing: { processing: number; stuck_processing: number } | undefined,
    reasons: { channel: string; provider: string; reason: string; count: number }[],
    now: number,
  ): QueueReading {
    const lateness = (at: Date | null) => (at ? Math.max(0, Math.round((now - new Date(at).getTime()) / 1000)) : null);
    const oldest = (a: Date | null, b: Date | null) => (!a ? b : !b ? a : new Date(a) < new Date(b) ? a : b);
    const totals = { pending: 0, retry: 0, due: 0, late: 0 };
    const oldestByBand: Record<Band, Date | null> = { urgent: null, normal: null, bulk: null };
    const channels = new Map<
      string,
      {
        row: Omit<WaitingRow, 'oldest_late_seconds' | 'by_project'>;
        oldest: Date | null;
        projects: Map<string, { late: number; due: number; oldest: Date | null }>;
      }
    >();
    const retrying = new Map<
      string,
      {
        row: Pick<RetryingRow, 'channel' | 'provider' | 'count' | 'sample_job_id'>;
        projects: string[];
        oldest: Date | null;
        next: Date | null;
      }
    >();
    const retriesWaiting: RetriesWaitingRow[] = [];
    for (const r of live) {
      if (r.grouping_set === BY_PROJECT_BAND) {
        totals.pending += r.pending;
        totals.retry += r.retry;
        totals.due += r.due;
        totals.late += r.late;
        if (r.band) oldestByBand[r.band] = oldest(oldestByBand[r.band], r.oldest_late_at);
        const c = channels.get(r.channel) ?? {
          row: { channel: r.channel, pending: 0, retry: 0, due: 0, late: 0, projects_late: 0 },
          oldest: null,
          projects: new Map(),
        };
        c.row.pending += r.pending;
        c.row.retry += r.retry;
        c.row.due += r.due;
        c.row.late += r.late;
        c.oldest = oldest(c.oldest, r.oldest_late_at);
        const p = c.projects.get(r.project_id!) ?? { late: 0, due: 0, oldest: null };
        p.late += r.late;
        p.due += r.due;
        p.oldest = oldest(p.oldest, r.oldest_late_at);
        c.projects.set(r.project_id!, p);
        channels.set(r.channel, c);
      } else if (r.grouping_set === BY_PROVIDER) {
        const key = `${r.channel}\u0000${r.provider}`;
        const c = retrying.get(key) ?? {
          row: { channel: r.channel, provider: r.provider ?? 'none', count: 0, sample_job_id: '' },
          projects: [],
          oldest: null,
          next: null,
        };
        c.row.count += r.retry;
        c.projects.push(r.project_id!);
        c.oldest = oldest(c.oldest, r.oldest_late_at);
        c.next = oldest(c.next, r.next_retry_at);
        if ((r.newest_retry_id ?? '') > c.row.sample_job_id) c.row.sample_job_id = r.newest_retry_id!;
        retrying.set(key, c);
      } else if (r.grouping_set === BY_ATTEMPTS) {
        retriesWaiting.push({
          channel: r.channel,
          attempts: r.attempts ?? 0,
          count: r.retry,
          next_retry_at: iso(r.next_retry_at),
        });
      }
    }
    return {
      ...totals,
      processing: processing?.processing ?? 0,
      stuckProcessing: processing?.stuck_processing ?? 0,
      oldestWaitingSeconds: {
        urgent: lateness(oldestByBand.urgent),
        normal: lateness(oldestByBand.normal),
        bulk: lateness(oldestByBand.bulk),
      },
      waiting: [...channels.values()]
        .map(({ row, oldest: o, projects }) => {
          const byProject = [...projects.entries()]
            .filter(([, p]) => p.late + p.due > 0)
            .sort((a, b) => b[1].late - a[1].late || a[0].localeCompare(b[0]));
          return {
            ...row,
            oldest_late_seconds: lateness(o),
            projects_late: byProject.filter(([, p]) => p.late > 0).length,
            by_project: byProject.slice(0, MAX_PROJECTS_LISTED).map(([project_id, p]) => ({
              project_id,
              late: p.late,
              due: p.due,
              oldest_late_seconds: lateness(p.oldest),
            })),
          };
        })
        .sort((a, b) => a.channel.localeCompare(b.channel)),
      retrying: [...retrying.values()]
        .map(({ row, projects, oldest: o, next }) => ({
          ...row,
          projects: projects.length,
          project_ids: projects.sort().slice(0, 20),
          oldest_late_seconds: lateness(o),
          next_retry_at: iso(next),
          causes: reasons
            .filter((c) => c.channel === row.channel && c.provider === row.provider)
            .sort((a, b) => b.count - a.count || a.reason.localeCompare(b.reason))
            .slice(0, MAX_CAUSES_LISTED)
            .map(({ reason, count }) => ({ reason, count })),
        }))
        .sort(
          (a, b) => b.count - a.count || a.channel.localeCompare(b.channel) || a.provider.localeCompare(b.provider),
        ),
      retriesWaiting: retriesWaiting.sort((a, b) => a.channel.localeCompare(b.channel) || a.attempts - b.attempts),
    };
  }

  /**
   * The window [since, now): rolled periods from job_outcome_hourly (whole hours before
   * hours_through, 5-minute periods after), the rest (the partial first period, what is not
   * rolled yet, the rolled periods changed since) from jobs, in one snapshot.
   */
  async window(since: Date): Promise<WindowReading> {
    const rows = await this.db.transaction(async (runner) => {
      await this.db.exec(windowSql.WINDOW_SNAPSHOT, [], runner);
      await this.db.exec(windowSql.WINDOW_SETTINGS, [], runner);
      const state = await this.db.one<{ rolled_through: Date | null; hours_through: Date | null; dirty: Date[] }>(
        windowSql.ROLLUP_STATE,
        [],
        runner,
      );
      const plan = windowPlan(
        since,
        state?.hours_through ? new Date(state.hours_through) : null,
        state?.rolled_through ? new Date(state.rolled_through) : null,
        (state?.dirty ?? []).map((d) => new Date(d)),
      );
      return this.db.rows<WindowRow>(
        windowSql.WINDOW_ROWS,
        [since, plan.firstPeriod, plan.rolledEnd, plan.dirtyFrom, plan.dirtyTo, plan.dirtyHours, plan.dirtyPeriods].map(
          (v) => (Array.isArray(v) ? v.map((d) => d.toISOString()) : v.toISOString()),
        ),
        runner,
      );
    });
    return foldWindow(rows);
  }

  private async databaseHealth(runner: QueryRunner): Promise<DatabaseHealth> {
    type Row = { live: number; dead: number; last_vacuum: Date | null; notify_lock_waiters: number } & Record<
      AutovacuumBlockerColumn,
      boolean
    >;
    const row = await this.db.one<Row>(sql.DATABASE_HEALTH, [], runner);
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
