import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { type RateDecision, WindowCounts } from '../../common/rate-limit/window-counts.js';
import type { AppConfig } from '../../config/app-config.js';
import { APP_CONFIG } from '../../config/config.module.js';
import { RateLimitRepository } from './rate-limit.repository.js';

/** The scope of a project's budget (rate_limit_per_min): every door its key or its subscriber tokens open. */
export const projectScope = (projectId: string) => `project:${projectId}`;
/** The scope of an operator key's budget on /mcp. */
export const operatorScope = (role: string) => `operator:${role}`;

/**
 * Per-minute budgets shared by every replica, without a database write per request (issue 19
 * forbids one on the send path). Each process counts what it admits in memory and decides on
 * (what the other processes had admitted at its last tick + what it admitted itself). A tick
 * every RATE_LIMIT_SYNC_MS writes its own changed counts and reads the others' totals in one
 * statement; it runs only while the process has been asked for some budget in the current
 * minute (an idle process does nothing). Between ticks a replica does not see the others'
 * admissions, so the replicas together may admit up to about (replicas − 1) × tick × their
 * request rate over a limit (never more than (replicas − 1) × the limit).
 *
 * Windows are aligned to the database's clock (learnt on each tick), so replicas with skewed
 * clocks count the same minute.
 */
@Injectable()
export class RateLimiter implements OnApplicationShutdown {
  private readonly logger = new Logger('RateLimiter');
  private readonly counts = new WindowCounts();
  /** This process's rows in rate_limit_counts. */
  private readonly replica = randomUUID();
  private clockOffsetMs = 0;
  private timer: NodeJS.Timeout | undefined;
  private syncing: Promise<void> | undefined;
  private purgedBefore = 0;
  private lastWarning = 0;
  private stopped = false;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly repository: RateLimitRepository,
  ) {}

  /** Spends one unit of `scope`'s per-minute `limit`, or says how long until the window ends. */
  take(scope: string, limit: number): RateDecision {
    const decision = this.counts.take(scope, limit, this.now());
    this.schedule();
    return decision;
  }

  onApplicationShutdown(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  /** Runs a tick now (tests, and the scheduled tick). */
  async sync(): Promise<void> {
    this.timer = undefined;
    if (this.syncing) return this.syncing;
    this.syncing = this.reconcile().finally(() => (this.syncing = undefined));
    return this.syncing;
  }

  private schedule(): void {
    if (this.timer || this.stopped) return;
    this.timer = setTimeout(() => void this.sync(), this.config.auth.rateLimitSyncMs);
    this.timer.unref();
  }

  private now(): number {
    return Date.now() + this.clockOffsetMs;
  }

  private async reconcile(): Promise<void> {
    const pending = this.counts.pending(this.now());
    if (!pending) return;
    try {
      const sent = Date.now();
      const { others, dbNowMs } = await this.repository.sync(this.replica, pending);
      if (dbNowMs !== undefined) this.clockOffsetMs = dbNowMs - (sent + Date.now()) / 2;
      this.counts.reconciled(pending, others);
      this.schedule();
      // Once per window: the windows before the previous one are of no use to anyone.
      const previous = pending.windowStart - this.counts.windowMs;
      if (previous > this.purgedBefore) {
        this.purgedBefore = previous;
        await this.repository.purgeBefore(previous);
      }
    } catch (err) {
      // The counts stay unwritten and go with the next tick; meanwhile this process decides on
      // what it knows. Warn once a minute at most: a database outage is reported elsewhere.
      if (!this.stopped && Date.now() - this.lastWarning > 60_000) {
        this.lastWarning = Date.now();
        this.logger.warn(`could not share rate-limit counts: ${(err as Error).message}`);
      }
      this.schedule();
    }
  }
}
