import { Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { AppConfig } from '../config/app-config.js';
import { inBatches } from '../database/in-batches.js';
import { SignalWokenLoop } from '../database/signals/signal-woken-loop.js';
import type { SignalsService } from '../database/signals/signals.service.js';
import type { PeriodicTasks } from './periodic-tasks.service.js';

/** The maintenance runs once a minute on one replica (PeriodicTasks). */
const MAINTENANCE_EVERY_MS = 60_000;
/** Rows per statement, so one run never holds many locks or writes a huge WAL burst. */
const REAP_BATCH = 1_000;
const PURGE_BATCH = 5_000;

/** The two maintenance statements of a queue table, each bounded by `limit` rows. */
export interface QueueTable {
  /** Hands back the rows held longer than the lease (their worker stopped answering); returns how many. */
  reap(leaseSeconds: number, limit: number): Promise<number>;
  /** Deletes finished rows older than `before`; returns how many. */
  purge(before: Date, limit: number): Promise<number>;
}

export interface QueueTableWorkerOptions {
  /** The logger's context ("Webhooks"). */
  logName: string;
  /** What a round does, for the log line when one fails ("webhook delivery round"). */
  what: string;
  /** Signal topic: rows were queued (any replica's worker may take them now). */
  topic: string;
  /** The PeriodicTasks name of the reaper and retention ("webhook-maintenance"). */
  maintenanceTask: string;
  table: QueueTable;
  leaseSeconds: number;
  /** Finished rows are kept this many days; undefined: for good. */
  retentionDays: number | undefined;
  batchSize: number;
  pollIntervalMs: number;
}

/**
 * A worker that drains a queue table (webhook deliveries, workflow runs) on a SignalWokenLoop,
 * in the worker and all roles: rounds of claims woken by a signal or the poll, and once a
 * minute on one replica a reaper (rows whose worker died) and the table's retention. Both
 * maintenance statements tolerate a concurrent run (the reap skips locked rows, the purge
 * deletes by id), and none waits while holding a connection. The api role only wakes them.
 */
export abstract class QueueTableWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  protected readonly logger: Logger;
  private readonly loop: SignalWokenLoop;

  protected constructor(
    protected readonly queue: QueueTableWorkerOptions,
    private readonly role: AppConfig['server']['role'],
    private readonly periodic: PeriodicTasks,
    signals: SignalsService,
  ) {
    this.logger = new Logger(queue.logName);
    this.loop = new SignalWokenLoop({
      what: queue.what,
      logger: this.logger,
      signals,
      topic: queue.topic,
      round: () => this.claimRound(),
      batchSize: queue.batchSize,
      pollIntervalMs: queue.pollIntervalMs,
    });
  }

  /** Claims and handles one batch; returns how many rows it claimed. */
  protected abstract claimRound(): Promise<number>;

  onApplicationBootstrap(): void {
    if (this.role === 'api') return;
    this.periodic.every(this.queue.maintenanceTask, MAINTENANCE_EVERY_MS, () => this.maintain());
    this.loop.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.loop.stop();
  }

  /** Rows were queued (and committed): take them now instead of at the next poll, on this replica or a worker one. */
  wake(): void {
    this.loop.wake();
  }

  /** The reaper, then the retention. */
  async maintain(): Promise<void> {
    const { table, leaseSeconds, retentionDays } = this.queue;
    await inBatches(REAP_BATCH, (batch) => table.reap(leaseSeconds, batch));
    if (retentionDays) {
      const before = new Date(Date.now() - retentionDays * 86_400_000);
      await inBatches(PURGE_BATCH, (batch) => table.purge(before, batch));
    }
  }
}
