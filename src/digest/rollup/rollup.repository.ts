import { Injectable } from '@nestjs/common';
import { Db } from '../../database/db.js';
import * as sql from '../sql/window.sql.js';

/** The rollup's writes (statements in ../sql/window.sql.ts). Each method is one transaction. */
@Injectable()
export class RollupRepository {
  constructor(private readonly db: Db) {}

  /** Where the rollup stands, read without a lock (the writes below check again under it). */
  async progress(): Promise<{ rolledThrough: Date | null; dirty: boolean }> {
    const row = await this.db.one<{ rolled_through: Date | null; dirty: boolean }>(sql.ROLLUP_PROGRESS, []);
    return { rolledThrough: row?.rolled_through ? new Date(row.rolled_through) : null, dirty: row?.dirty ?? false };
  }

  /**
   * Rolls the next hours after rolled_through, up to `to` and at most `maxHours` of them
   * (from `start` when nothing was rolled yet), and advances rolled_through. Returns the new
   * rolled_through, or null when there was nothing to roll.
   */
  rollNext(start: Date, to: Date, maxHours: number): Promise<Date | null> {
    return this.db.transaction(async (runner) => {
      const state = await this.db.one<{ rolled_through: Date | null }>(sql.LOCK_ROLLUP, [], runner);
      const from = state?.rolled_through ? new Date(state.rolled_through) : start;
      if (from >= to) return null;
      const until = new Date(Math.min(to.getTime(), from.getTime() + maxHours * 3_600_000));
      await this.db.exec(sql.DELETE_ROLLED, [from.toISOString(), until.toISOString(), null], runner);
      await this.db.exec(sql.ROLL_HOURS, [from.toISOString(), until.toISOString(), null], runner);
      await this.db.exec(sql.ADVANCE_ROLLUP, [until.toISOString()], runner);
      return until;
    });
  }

  /**
   * Re-rolls the rolled hours marked dirty, those at or after `oldest` (older ones may have
   * lost jobs to the retention purge: recomputing them would drop counts, so they stay as
   * rolled). Marks of hours not rolled yet are dropped: their first roll will see the change.
   * Returns the hours re-rolled.
   */
  rerollDirty(oldest: Date | null): Promise<Date[]> {
    return this.db.transaction(async (runner) => {
      const state = await this.db.one<{ rolled_through: Date | null }>(sql.LOCK_ROLLUP, [], runner);
      const marked = await this.db.rows<{ hour: Date }>(sql.TAKE_DIRTY, [], runner);
      const rolledThrough = state?.rolled_through ? new Date(state.rolled_through) : null;
      if (!rolledThrough) return [];
      const hours = marked
        .map((m) => new Date(m.hour))
        .filter((h) => h < rolledThrough && (!oldest || h >= oldest))
        .sort((a, b) => a.getTime() - b.getTime());
      if (!hours.length) return [];
      const from = hours[0].toISOString();
      const to = new Date(hours[hours.length - 1].getTime() + 3_600_000).toISOString();
      const list = hours.map((h) => h.toISOString());
      await this.db.exec(sql.DELETE_ROLLED, [from, to, list], runner);
      await this.db.exec(sql.ROLL_HOURS, [from, to, list], runner);
      return hours;
    });
  }
}
