import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import type { AppConfig } from '../../config/app-config.js';
import { APP_CONFIG } from '../../config/config.module.js';
import type { Channel } from '../../domain/channels.js';
import { Clock } from '../../config/clock.js';
import { ConnectorRegistry } from '../../connectors/connector-registry.js';
import { Db } from '../../database/db.js';
import { type ClockDelta, FairClocks } from './fair-clocks.js';
import { FUTURE_FAIR_CLOCKS, RECONCILE_FAIR_CLOCKS } from './fair-share.sql.js';
import { fairSlots } from './fair-slots.js';

/** How often a process that queues paced traffic reconciles its clocks with the other replicas'. */
export const FAIR_SYNC_MS = 500;

interface SharedClockRow {
  projectId: string;
  channel: string;
  priority: number;
  nextAt: Date;
  dbNow: Date;
}

/**
 * Fair share inside a paced lane (src/pacing/README.md, "Fair share inside a lane"), computed in memory at enqueue
 * and reconciled with the other replicas every FAIR_SYNC_MS (FairClocks says how, and the
 * bound on the error). The send path never writes or waits on a shared row.
 */
@Injectable()
export class FairShareService implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(FairShareService.name);
  private readonly clocks = new FairClocks();
  /** The database's clock minus this process's, from the last reconciliation (slots are compared with the database's now() by the claim). */
  private offsetMs = 0;
  private timer: NodeJS.Timeout | undefined;
  private syncing: Promise<void> | undefined;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly registry: ConnectorRegistry,
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  async onModuleInit(): Promise<void> {
    if (!this.config.pacing.fairShare || this.config.server.role === 'worker') return;
    try {
      const sentAt = this.clock.nowMs();
      for (const row of await this.db.rows<SharedClockRow>(FUTURE_FAIR_CLOCKS)) {
        this.learnOffset(row.dbNow, sentAt);
        this.clocks.advance(row, 0, row.nextAt.getTime());
      }
    } catch (err) {
      // The clocks start from now; the first reconciliation adopts the shared ones.
      this.logger.warn(`fair-share clocks unreadable at start-up: ${(err as Error).message}`);
    }
  }

  async onApplicationShutdown(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.sync();
  }

  /** Each job's run_at (fairSlots), on the database's clock. */
  slots(
    projectId: string,
    priority: number,
    jobs: readonly { channel: Channel; scheduledAt: Date }[],
  ): (Date | undefined)[] {
    if (!this.config.pacing.fairShare) return jobs.map(() => undefined);
    const slots = fairSlots(
      this.clocks,
      projectId,
      priority,
      jobs,
      (channel) => this.stepSecs(channel),
      this.clock.nowMs() + this.offsetMs,
    );
    if (this.clocks.dirty) this.scheduleSync();
    return slots;
  }

  /** Seconds of lane time one message costs: 1 token per message, or 1/batchMax per message where the provider meters requests. */
  private stepSecs(channel: Channel): number {
    const rate = this.config.pacing.rates[channel] ?? 0;
    const connector = this.registry.forChannel(channel);
    if (rate <= 0 || !connector) return 0;
    return (connector.meters === 'messages' ? 1 : 1 / connector.batchMax) / rate;
  }

  private scheduleSync(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.sync();
    }, FAIR_SYNC_MS);
    this.timer.unref();
  }

  /** One reconciliation at a time; a failed one keeps its spans for the next. */
  sync(): Promise<void> {
    this.syncing ??= this.reconcile().finally(() => {
      this.syncing = undefined;
      if (this.clocks.dirty) this.scheduleSync();
    });
    return this.syncing;
  }

  private async reconcile(): Promise<void> {
    const deltas = this.clocks.takeDeltas().sort(byKey);
    if (deltas.length === 0) return;
    const sentAt = this.clock.nowMs();
    try {
      const rows = await this.db.rows<SharedClockRow>(RECONCILE_FAIR_CLOCKS, [
        deltas.map((d) => d.projectId),
        deltas.map((d) => d.channel),
        deltas.map((d) => d.priority),
        deltas.map((d) => d.spanSecs),
      ]);
      for (const row of rows) {
        this.learnOffset(row.dbNow, sentAt);
        this.clocks.adopt(row, row.nextAt.getTime());
      }
      this.clocks.evictIdle(this.clock.nowMs() + this.offsetMs);
    } catch (err) {
      this.clocks.restore(deltas);
      this.logger.warn(`fair-share clocks not reconciled (retrying in ${FAIR_SYNC_MS} ms): ${(err as Error).message}`);
    }
  }

  /** The database's time at the middle of the round trip that read it. */
  private learnOffset(dbNow: Date, sentAtMs: number): void {
    const localMid = (sentAtMs + this.clock.nowMs()) / 2;
    this.offsetMs = dbNow.getTime() - localMid;
  }
}

const byKey = (a: ClockDelta, b: ClockDelta) =>
  a.projectId < b.projectId
    ? -1
    : a.projectId > b.projectId
      ? 1
      : a.channel < b.channel
        ? -1
        : a.channel > b.channel
          ? 1
          : a.priority - b.priority;
