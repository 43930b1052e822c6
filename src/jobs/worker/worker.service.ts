import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import type { AppConfig } from '../../config/app-config.js';
import { APP_CONFIG } from '../../config/config.module.js';
import { PacingService } from '../../pacing/pacing.service.js';
import type { ClaimedJob } from './claimed-job.js';
import { type DispatchControl, Dispatcher } from './dispatcher.js';
import { WorkerRepository } from './worker.repository.js';
import { WorkerIdle } from './worker-idle.js';
import { WorkerWakeup } from './worker-wakeup.js';

/**
 * The worker loop: claim a batch, hand it to the dispatcher, and claim the next one while it
 * is being sent. When a claim comes back short the queue is drained: sleep until woken
 * (an enqueue, a signal) or the fallback poll. Database errors back off; they never stop
 * the loop or the process.
 */
@Injectable()
export class WorkerService implements OnApplicationBootstrap, BeforeApplicationShutdown, DispatchControl {
  private readonly logger = new Logger('Worker');
  private loop: Promise<void> | undefined;
  private readonly inFlight = new Set<Promise<void>>();
  stopping = false;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly repository: WorkerRepository,
    private readonly dispatcher: Dispatcher,
    private readonly pacing: PacingService,
    private readonly wakeup: WorkerWakeup,
    private readonly idle: WorkerIdle,
  ) {}

  get enabled(): boolean {
    return this.config.server.role !== 'api';
  }

  onApplicationBootstrap(): void {
    if (this.enabled) this.start();
  }

  start(): void {
    if (this.loop) return;
    this.stopping = false;
    this.logger.log(
      `claiming up to ${this.config.worker.batchSize} jobs per batch, polling every ${this.config.worker.pollIntervalMs} ms when idle`,
    );
    this.loop = this.run();
  }

  /**
   * Claims and dispatches until nothing is due; for tests and tools that drive the worker by
   * hand (NOTIFYD_ROLE=api, no loop). Returns the number of jobs claimed.
   */
  async drainOnce(): Promise<number> {
    let total = 0;
    for (;;) {
      const jobs = await this.claim();
      if (jobs.length === 0) return total;
      total += jobs.length;
      await this.dispatcher.dispatch(jobs, this);
    }
  }

  private async run(): Promise<void> {
    let failures = 0;
    while (!this.stopping) {
      let jobs: ClaimedJob[];
      try {
        jobs = await this.claim();
        failures = 0;
      } catch (err) {
        failures++;
        const backoff = Math.min(30_000, 250 * 2 ** Math.min(failures, 7));
        this.logger.warn(`claim failed (${(err as Error).message}); retrying in ${backoff} ms`);
        await this.wakeup.sleep(backoff);
        continue;
      }
      if (jobs.length) this.track(this.dispatcher.dispatch(jobs, this));
      // WORKER_BATCHES_IN_FLIGHT (default 3): a dispatch is a chain of awaits (rules, provider
      // calls, finalise, its listeners); with only one other batch beside it, the database and
      // this process took turns more than they overlapped during a drain.
      if (this.inFlight.size >= this.config.worker.batchesInFlight) await Promise.race(this.inFlight);
      // A full batch means more is probably due: loop at once. A short one means idle: sleep
      // until a signal, the next known due time or the fallback poll.
      if (jobs.length < this.config.worker.batchSize && !this.stopping) await this.idle.sleep();
    }
  }

  private async claim(): Promise<ClaimedJob[]> {
    const paused = await this.pacing.pausedForClaim();
    return this.repository.claim(this.config.worker.batchSize, paused.channels, paused.projectChannels);
  }

  private track(dispatch: Promise<void>): void {
    const tracked = dispatch
      .catch((err) => this.logger.error(`dispatch failed: ${(err as Error)?.stack ?? err}`))
      .finally(() => this.inFlight.delete(tracked));
    this.inFlight.add(tracked);
  }

  /**
   * Graceful stop: no new claims, no new provider calls (unstarted jobs are released at once),
   * calls in flight get SHUTDOWN_GRACE_SECS to finish and be recorded. A call still running
   * after that is left to the reaper: its job stays processing until the lease expires.
   */
  async beforeApplicationShutdown(): Promise<void> {
    if (!this.loop) return;
    this.stopping = true;
    this.wakeup.wake();
    await this.loop;
    this.loop = undefined;
    if (this.inFlight.size === 0) return;
    this.logger.log(
      `waiting up to ${this.config.server.shutdownGraceMs} ms for ${this.inFlight.size} batch(es) in flight`,
    );
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), this.config.server.shutdownGraceMs);
    });
    const result = await Promise.race([Promise.all(this.inFlight).then(() => 'done' as const), grace]);
    clearTimeout(timer);
    if (result === 'timeout') this.logger.warn('grace period over: sends still in flight are left to the reaper');
  }
}
