import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import type { AppConfig } from '../../config/app-config.js';
import { APP_CONFIG } from '../../config/config.module.js';
import { inBatches } from '../../database/in-batches.js';
import { PeriodicTasks } from '../../periodic/periodic-tasks.service.js';
import { BatchesRepository } from '../batches.repository.js';
import { RefusalsRepository } from '../refusals/refusals.repository.js';
import { WorkerWakeup } from './worker-wakeup.js';
import { WorkerRepository } from './worker.repository.js';

/** Rows per statement, so one run never holds many locks or writes a huge WAL burst. */
const REAP_BATCH = 1_000;
const PURGE_BATCH = 5_000;
const DAY_MS = 86_400_000;

/**
 * Periodic work of the worker role: the reaper (expired leases) and the retention purge.
 * Each tick runs on one replica, whatever the count (PeriodicTasks claims it in periodic_runs).
 * No transaction-held advisory lock around the work: it pinned one pool connection while the
 * work waited for another, and three tasks starting together at boot could exhaust a small
 * pool. Both statements are safe to overlap anyway (SKIP LOCKED; a delete of gone rows).
 */
@Injectable()
export class MaintenanceService implements OnApplicationBootstrap {
  private readonly logger = new Logger('Maintenance');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly repository: WorkerRepository,
    private readonly periodic: PeriodicTasks,
    private readonly wakeup: WorkerWakeup,
    private readonly batches: BatchesRepository,
    private readonly refusals: RefusalsRepository,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.server.role === 'api') return;
    this.periodic.every('reaper', this.config.worker.reaperIntervalMs, () => this.reap());
    this.periodic.every('retention', this.config.worker.retentionIntervalMs, () => this.purge());
  }

  /** Re-queues jobs whose worker died (lease expired). Returns how many it touched. */
  async reap(): Promise<number> {
    const leaseSeconds = this.config.worker.leaseMs / 1000;
    const total = await inBatches(
      REAP_BATCH,
      async (batch) => (await this.repository.reap(leaseSeconds, batch)).length,
    );
    if (total) {
      this.logger.warn(`re-queued ${total} job(s) whose worker stopped answering (lease ${leaseSeconds} s)`);
      this.wakeup.jobsDue();
    }
    return total;
  }

  /**
   * Deletes finished jobs past JOB_RETENTION_DAYS / FAILED_JOB_RETENTION_DAYS, then the batches
   * left without jobs and the refused sends (send_refusals) older than JOB_RETENTION_DAYS: a
   * refusal is kept as long as a sent job, so the trace sees both over the same days.
   */
  async purge(): Promise<number> {
    const { retentionDays, failedRetentionDays } = this.config.worker;
    if (!retentionDays && !failedRetentionDays) return 0;
    const now = Date.now();
    const finishedBefore = retentionDays ? new Date(now - retentionDays * DAY_MS) : null;
    const failedBefore = failedRetentionDays ? new Date(now - failedRetentionDays * DAY_MS) : null;
    const total = await inBatches(PURGE_BATCH, (batch) => this.repository.purge(finishedBefore, failedBefore, batch));
    if (total) this.logger.log(`retention: deleted ${total} finished job(s)`);
    // A batch row goes once none of its jobs is left and it is older than the jobs' retention.
    const oldest = Math.max(retentionDays ?? 0, failedRetentionDays ?? 0);
    const batchesBefore = new Date(now - oldest * DAY_MS);
    await inBatches(PURGE_BATCH, (batch) => this.batches.purgeEmpty(batchesBefore, batch));
    if (finishedBefore) await inBatches(PURGE_BATCH, (batch) => this.refusals.purge(finishedBefore, batch));
    return total;
  }
}
