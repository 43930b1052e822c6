import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import type { AppConfig } from '../../config/app-config.js';
import { APP_CONFIG } from '../../config/config.module.js';
import { PeriodicTasks } from '../../periodic/periodic-tasks.service.js';
import { RollupRepository } from './rollup.repository.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
/** How often the rollup runs (once per tick across replicas): the open periods lag by about this much. */
export const ROLLUP_INTERVAL_MS = 15_000;
/**
 * A whole hour is rolled (from scratch, replacing its 5-minute rows) this long after it ends:
 * finished_at is the finalising transaction's now(), so a transaction that began at 10:59:59 and
 * commits after 11:00 still writes into hour 10. Until then its periods serve the digest.
 */
export const SETTLE_MS = 5 * 60_000;
/**
 * The open periods are rolled up to the start of the oldest transaction still open (it may
 * still stamp finished_at at its start), and at least this long before now: a transaction that
 * has just begun may not be listed in pg_stat_activity yet. Never more than SETTLE_MS back.
 */
export const OPEN_SETTLE = { marginSeconds: 0.25, maxSeconds: SETTLE_MS / 1000 };
/** The digest rolls the open periods itself before reading when they lag by at least this. */
export const CATCH_UP_MIN_MS = 1_000;
/** The first run rolls this far back: the longest digest window. */
export const BACKFILL_DAYS = 30;
/** Hours per transaction when catching up (the backfill), so no run holds one huge statement. */
const HOURS_PER_STEP = 24;

export interface RollupRun {
  /** The new hours_through, when whole hours were rolled. */
  hoursThrough: Date | null;
  /** The new rolled_through, when open periods were rolled. */
  rolledThrough: Date | null;
  rerolled: Date[];
}

/**
 * The digest's rollup (job_outcome_hourly): rolls each hour whole once it has closed and
 * settled, the open hours in 5-minute periods as soon as no transaction can still stamp them,
 * and again what changed later (job_rollup_dirty, set by a trigger on jobs). It runs as a
 * periodic task in every role (the digest is served by API replicas), never in the worker's
 * finalise path; the digest also rolls the open periods itself before reading when the task
 * is behind (catchUp), so right after a burst only the first read aggregates the new jobs.
 * See src/digest/README.md, "The rollup".
 */
@Injectable()
export class DigestRollup implements OnApplicationBootstrap {
  private readonly logger = new Logger('DigestRollup');
  /** Set once summarizing the BRIN was refused (not the index's owner): not tried again. */
  private summarizeRefused = false;
  /** When this process last looked whether the open periods needed a catch-up. */
  private lastCatchUp = 0;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly repository: RollupRepository,
    private readonly periodic: PeriodicTasks,
  ) {}

  onApplicationBootstrap(): void {
    this.periodic.every('digest-rollup', ROLLUP_INTERVAL_MS, () => this.run());
  }

  /** Rolls every settled hour not rolled yet, then the open periods, then re-rolls the dirty ones. */
  async run(now = new Date()): Promise<RollupRun> {
    const closed = closedHours(now);
    const start = new Date(Math.floor(now.getTime() / HOUR_MS) * HOUR_MS - BACKFILL_DAYS * DAY_MS);
    const progress = await this.repository.progress();
    let hoursThrough: Date | null = null;
    if (!progress.hoursThrough || progress.hoursThrough < closed) {
      for (;;) {
        const next = await this.repository.rollHours(start, closed, HOURS_PER_STEP);
        if (!next) break;
        hoursThrough = next;
        // Caught up: no need to take the lock once more only to learn it.
        if (next >= closed) break;
      }
    }
    const rolledThrough = await this.repository.rollOpenPeriods(closed, OPEN_SETTLE);
    const rerolled = progress.dirty ? await this.repository.rerollDirty(this.oldestIntact(now)) : [];
    if (rerolled.length)
      this.logger.log(`re-rolled ${rerolled.length} period(s) whose jobs changed after they were rolled`);
    await this.summarize();
    return { hoursThrough, rolledThrough, rerolled };
  }

  /**
   * For the digest, before it reads: rolls the open periods if they lag the settled point by a
   * second or more and no other roller is at it (it never waits for the lock), so that the
   * jobs finished since the last tick are aggregated once, here, rather than by every read.
   * Whole hours are left to the periodic task. Never throws: the digest is exact without it.
   */
  async catchUp(now = new Date()): Promise<void> {
    // Reads in quick succession (a dashboard, an agent) look once a second at most.
    if (now.getTime() - this.lastCatchUp < CATCH_UP_MIN_MS) return;
    this.lastCatchUp = now.getTime();
    try {
      // After a burst, the pages it appended are summarized too, so that the reads after this
      // one skip them.
      if (await this.repository.rollOpenPeriods(closedHours(now), OPEN_SETTLE, false, CATCH_UP_MIN_MS))
        await this.summarize();
    } catch (err) {
      this.logger.warn(
        `the digest could not roll the open periods before reading (${(err as Error).message}); it reads them from jobs`,
      );
    }
  }

  /** Summarizes the finished_at BRIN's new page ranges (SUMMARIZE_FINISHED_AT), unless refused before. */
  private async summarize(): Promise<void> {
    if (this.summarizeRefused) return;
    try {
      await this.repository.summarizeNewRanges();
    } catch (err) {
      this.summarizeRefused = true;
      this.logger.warn(
        `cannot summarize jobs_finished_at_brin (${(err as Error).message}); the digest relies on (auto)vacuum for it`,
      );
    }
  }

  /**
   * The oldest hour whose jobs are all still there: the retention purge deletes jobs finished
   * before now − JOB_RETENTION_DAYS (sent, cancelled, bounced) or FAILED_JOB_RETENTION_DAYS
   * (failed); 0 keeps them. null when nothing is ever purged.
   */
  private oldestIntact(now: Date): Date | null {
    const days = [this.config.worker.retentionDays, this.config.worker.failedRetentionDays].filter((d) => d > 0);
    if (!days.length) return null;
    return new Date(Math.ceil((now.getTime() - Math.min(...days) * DAY_MS) / HOUR_MS) * HOUR_MS);
  }
}

/** Hours before this one have closed and settled: they are rolled whole. */
function closedHours(now: Date): Date {
  return new Date(Math.floor((now.getTime() - SETTLE_MS) / HOUR_MS) * HOUR_MS);
}
