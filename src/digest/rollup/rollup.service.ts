import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import type { AppConfig } from '../../config/app-config.js';
import { APP_CONFIG } from '../../config/config.module.js';
import { PeriodicTasks } from '../../periodic/periodic-tasks.service.js';
import { RollupRepository } from './rollup.repository.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
/** How often the rollup runs (once per tick across replicas). */
export const ROLLUP_INTERVAL_MS = 60_000;
/**
 * An hour is rolled this long after it ends: finished_at is the finalising transaction's
 * now(), so a transaction that began at 10:59:59 and commits after 11:00 still writes into
 * hour 10. Until then the digest reads the hour from jobs, so the margin costs no exactness.
 */
export const SETTLE_MS = 5 * 60_000;
/** The first run rolls this far back: the longest digest window. */
export const BACKFILL_DAYS = 30;
/** Hours per transaction when catching up (the backfill), so no run holds one huge statement. */
const HOURS_PER_STEP = 24;

export interface RollupRun {
  rolledThrough: Date | null;
  rerolled: Date[];
}

/**
 * The digest's hourly rollup (job_outcome_hourly): rolls each hour once it has closed, and
 * again when a job of it changed later (job_rollup_dirty, set by a trigger on jobs). It runs
 * as a periodic task in every role (the digest is served by API replicas), never in the
 * worker's finalise path. See docs/ARCHITECTURE.md §16, "The digest's hourly rollup".
 */
@Injectable()
export class DigestRollup implements OnApplicationBootstrap {
  private readonly logger = new Logger('DigestRollup');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly repository: RollupRepository,
    private readonly periodic: PeriodicTasks,
  ) {}

  onApplicationBootstrap(): void {
    this.periodic.every('digest-rollup', ROLLUP_INTERVAL_MS, () => this.run());
  }

  /** Rolls every closed hour not rolled yet, then re-rolls the dirty ones. */
  async run(now = new Date()): Promise<RollupRun> {
    const closed = new Date(Math.floor((now.getTime() - SETTLE_MS) / HOUR_MS) * HOUR_MS);
    const start = new Date(Math.floor(now.getTime() / HOUR_MS) * HOUR_MS - BACKFILL_DAYS * DAY_MS);
    // Most minutes have no hour to roll and no mark to take: then one read, and no write
    // transaction (each takes the rollup's row lock). Without a roll yet there is nothing to re-roll.
    const progress = await this.repository.progress();
    let rolledThrough: Date | null = null;
    if (!progress.rolledThrough || progress.rolledThrough < closed) {
      for (;;) {
        const next = await this.repository.rollNext(start, closed, HOURS_PER_STEP);
        if (!next) break;
        rolledThrough = next;
        // Caught up: no need to take the lock once more only to learn it.
        if (next >= closed) break;
      }
    }
    const rolled = rolledThrough ?? progress.rolledThrough;
    const rerolled = progress.dirty && rolled ? await this.repository.rerollDirty(this.oldestIntact(now)) : [];
    if (rerolled.length) this.logger.log(`re-rolled ${rerolled.length} hour(s) whose jobs changed after they were rolled`);
    return { rolledThrough, rerolled };
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
