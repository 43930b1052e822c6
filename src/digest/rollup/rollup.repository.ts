import { Injectable } from '@nestjs/common';
import type { QueryRunner } from 'typeorm';
import { Db } from '../../database/db.js';
import * as sql from '../sql/window.sql.js';

const HOUR_MS = 3_600_000;
const PERIOD_MS = sql.PERIOD_SECONDS * 1000;

/** Where the rollup stands: whole hours before hoursThrough, 5-minute periods up to rolledThrough. */
export interface RollupProgress {
  rolledThrough: Date | null;
  hoursThrough: Date | null;
}

const date = (v: Date | string | null | undefined) => (v ? new Date(v) : null);
/** Where the open periods' next slice starts: rolled_through, or hours_through before any slice. */
const openFrom = (p: RollupProgress) =>
  p.hoursThrough ? (p.rolledThrough && p.rolledThrough > p.hoursThrough ? p.rolledThrough : p.hoursThrough) : null;
/** Whole hours are up to date (the slice is at most the open hour) and the settled point is more than minSpanMs ahead. */
const worthRolling = (p: RollupProgress, settled: Date, hoursDue: Date, minSpanMs: number) => {
  const from = openFrom(p);
  return !!from && p.hoursThrough! >= hoursDue && settled.getTime() - from.getTime() > minSpanMs;
};
const progressOf = (row: { rolled_through: Date | null; hours_through: Date | null } | undefined): RollupProgress => ({
  rolledThrough: date(row?.rolled_through),
  hoursThrough: date(row?.hours_through),
});

/** The rollup's writes (statements in ../sql/window.sql.ts). Each method is one transaction. */
@Injectable()
export class RollupRepository {
  constructor(private readonly db: Db) {}

  /** A transaction of the rollup (ROLL_SETTINGS: its commit does not wait for the disk). */
  private roll<T>(work: (runner: QueryRunner) => Promise<T>): Promise<T> {
    return this.db.transaction(async (runner) => {
      await this.db.exec(sql.ROLL_SETTINGS, [], runner);
      return work(runner);
    });
  }

  /** Where the rollup stands, read without a lock (the writes below check again under it). */
  async progress(): Promise<RollupProgress & { dirty: boolean }> {
    const row = await this.db.one<{ rolled_through: Date | null; hours_through: Date | null; dirty: boolean }>(
      sql.ROLLUP_PROGRESS,
      [],
    );
    return { ...progressOf(row), dirty: row?.dirty ?? false };
  }

  /**
   * Rolls the next whole hours after hours_through, up to `to` (an hour that closed long enough
   * ago) and at most `maxHours` of them (from `start` when nothing was rolled yet), replacing
   * the 5-minute rows those hours held, and advances hours_through. Returns the new
   * hours_through, or null when there was nothing to roll.
   */
  rollHours(start: Date, to: Date, maxHours: number): Promise<Date | null> {
    return this.roll(async (runner) => {
      const state = progressOf(await this.db.one(sql.LOCK_ROLLUP, [], runner));
      const from = state.hoursThrough ?? start;
      if (from >= to) return null;
      const until = new Date(Math.min(to.getTime(), from.getTime() + maxHours * HOUR_MS));
      await this.db.exec(sql.DELETE_ROLLED, [from.toISOString(), until.toISOString(), null], runner);
      await this.db.exec(sql.ROLL_HOURS, [from.toISOString(), until.toISOString(), null], runner);
      await this.db.exec(sql.ADVANCE_HOURS, [until.toISOString()], runner);
      return until;
    });
  }

  /**
   * Rolls the open periods: the jobs finished from rolled_through (or hours_through) up to the
   * settled point (SETTLED_POINT: no transaction can stamp an earlier finished_at any more) into
   * 5-minute rows, and advances rolled_through. Only once whole hours are up to date
   * (hours_through ≥ `hoursDue`), so the slice is at most the open hour and a few minutes.
   * With `wait` false it gives up at once when another roller holds the lock; it rolls nothing
   * when the settled point is less than `minSpanMs` ahead. Returns the new rolled_through, or
   * null when it rolled nothing.
   */
  async rollOpenPeriods(
    hoursDue: Date,
    settle: { marginSeconds: number; maxSeconds: number },
    wait = true,
    minSpanMs = 0,
  ): Promise<Date | null> {
    // Without a lock first: when there is nothing worth rolling (most reads), no write
    // transaction at all.
    const seen = await this.db.one<{ rolled_through: Date | null; hours_through: Date | null; settled: Date }>(
      sql.OPEN_LAG,
      [settle.marginSeconds, settle.maxSeconds],
    );
    if (!seen || !worthRolling(progressOf(seen), new Date(seen.settled), hoursDue, minSpanMs)) return null;
    return this.roll(async (runner) => {
      const row = await this.db.one<{ rolled_through: Date | null; hours_through: Date | null }>(
        wait ? sql.LOCK_ROLLUP : sql.TRY_LOCK_ROLLUP,
        [],
        runner,
      );
      if (!row) return null;
      const state = progressOf(row);
      const settled = await this.settledPoint(settle, runner);
      if (!worthRolling(state, settled, hoursDue, minSpanMs)) return null;
      const from = openFrom(state)!;
      await this.db.exec(sql.ROLL_PERIODS, [from.toISOString(), settled.toISOString(), null], runner);
      await this.db.exec(sql.ADVANCE_PERIODS, [settled.toISOString()], runner);
      return settled;
    });
  }

  /**
   * Re-rolls the rolled periods marked dirty: a mark before hours_through stands for its whole
   * hour (re-rolled if at or after `oldest`: older ones may have lost jobs to the retention
   * purge, and recomputing them would drop counts), a later one for its 5-minute period. Marks of
   * periods not rolled yet are dropped: their first roll will see the change. Returns the
   * periods re-rolled.
   */
  rerollDirty(oldest: Date | null): Promise<Date[]> {
    return this.roll(async (runner) => {
      const state = progressOf(await this.db.one(sql.LOCK_ROLLUP, [], runner));
      const marked = (await this.db.rows<{ hour: Date }>(sql.TAKE_DIRTY, [], runner)).map((m) => new Date(m.hour));
      if (!state.rolledThrough || !state.hoursThrough) return [];
      const hoursThrough = state.hoursThrough;
      const rolledThrough = state.rolledThrough;
      const hours = new Set<number>();
      const periods = new Set<number>();
      for (const m of marked) {
        if (m < hoursThrough) {
          const hour = Math.floor(m.getTime() / HOUR_MS) * HOUR_MS;
          if (!oldest || hour >= oldest.getTime()) hours.add(hour);
        } else if (m < rolledThrough) periods.add(m.getTime());
      }
      const sorted = (set: Set<number>) => [...set].sort((a, b) => a - b).map((t) => new Date(t));
      const rerolled: Date[] = [];
      for (const [list, span, roll] of [
        [sorted(hours), HOUR_MS, sql.ROLL_HOURS],
        [sorted(periods), PERIOD_MS, sql.ROLL_PERIODS],
      ] as const) {
        if (!list.length) continue;
        const from = list[0].toISOString();
        // A period that holds rolled_through is rolled up to it only: the rest is read from jobs.
        const to = new Date(
          Math.min(list[list.length - 1].getTime() + span, span === PERIOD_MS ? rolledThrough.getTime() : Infinity),
        ).toISOString();
        const keys = list.map((d) => d.toISOString());
        await this.db.exec(sql.DELETE_ROLLED, [from, to, keys], runner);
        await this.db.exec(roll, [from, to, keys], runner);
        rerolled.push(...list);
      }
      return rerolled;
    });
  }

  /** Summarizes the finished_at BRIN's new page ranges; returns how many it summarized. */
  async summarizeNewRanges(): Promise<number> {
    const row = await this.db.one<{ ranges: number }>(sql.SUMMARIZE_FINISHED_AT, []);
    return Number(row?.ranges ?? 0);
  }

  private async settledPoint(
    settle: { marginSeconds: number; maxSeconds: number },
    runner: QueryRunner,
  ): Promise<Date> {
    const row = await this.db.one<{ settled: Date }>(
      sql.SETTLED_POINT,
      [settle.marginSeconds, settle.maxSeconds],
      runner,
    );
    return new Date(row!.settled);
  }
}
