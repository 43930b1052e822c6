import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import type { AppConfig } from '../../config/app-config.js';
import { APP_CONFIG } from '../../config/config.module.js';
import { Db } from '../../database/db.js';
import { NEXT_DUE_IN_MS } from '../sql/next-due.sql.js';
import { DeliveryEvents } from './delivery-events.js';
import type { Outcomes } from './outcomes.js';
import { WorkerWakeup } from './worker-wakeup.js';

/** Wake this much after a known due time rather than exactly at it. */
const DUE_MARGIN_MS = 2;

/**
 * How long an idle worker sleeps: until a signal for a due job (WorkerWakeup), the soonest
 * known due time (scheduled_at, a retry's next_retry_at, the end of a lane pause), or the
 * fallback poll (WORKER_POLL_INTERVAL_MS), whichever comes first.
 */
@Injectable()
export class WorkerIdle implements OnModuleInit {
  private readonly logger = new Logger('Worker');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly db: Db,
    private readonly wakeup: WorkerWakeup,
    private readonly events: DeliveryEvents,
  ) {}

  onModuleInit(): void {
    // Retries and re-queues this worker just wrote: their due times, without a query.
    this.events.onFinalised((outcomes) => this.noteDueTimes(outcomes));
  }

  /** Sleeps until the next reason to claim. A failed lookup falls back to the poll interval. */
  async sleep(): Promise<void> {
    const poll = this.config.worker.pollIntervalMs;
    let ms = poll;
    try {
      const row = await this.db.one<{ inMs: number | string | null }>(NEXT_DUE_IN_MS);
      if (row?.inMs !== null && row?.inMs !== undefined) ms = Math.min(poll, Math.max(0, Math.ceil(Number(row.inMs))));
    } catch (err) {
      this.logger.debug?.(`next due time unknown (${(err as Error).message}); sleeping one poll interval`);
    }
    await this.wakeup.sleep(ms);
  }

  private noteDueTimes(outcomes: Outcomes): void {
    let soonest = Infinity;
    for (const r of outcomes.retry) soonest = Math.min(soonest, r.runAt.getTime());
    for (const r of outcomes.requeue) soonest = Math.min(soonest, r.runAt.getTime());
    // A timer may fire a millisecond early; waking before a lane pause ends would find nothing.
    if (soonest < Infinity) this.wakeup.dueAt(new Date(soonest + DUE_MARGIN_MS));
  }
}
