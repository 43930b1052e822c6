import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import type { AppConfig } from '../../config/app-config.js';
import { APP_CONFIG } from '../../config/config.module.js';
import { Db } from '../../database/db.js';
import { ALIVE_WITHIN_SECONDS } from '../../jobs/heartbeat/worker-heartbeat.service.js';
import { PeriodicTasks } from '../../periodic/periodic-tasks.service.js';
import { QUEUE_SNAPSHOT } from './metrics.service.js';
import * as sql from './sql/metrics.sql.js';

/**
 * Computes the queue gauges once per METRICS_GAUGE_INTERVAL_SECS on one replica and stores
 * them; every replica's scrape reads the stored value. A scrape storm never counts the queue.
 */
@Injectable()
export class QueueGaugesTask implements OnApplicationBootstrap {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly db: Db,
    private readonly periodic: PeriodicTasks,
  ) {}

  onApplicationBootstrap(): void {
    this.periodic.every('metrics-gauges', this.config.observability.gaugeIntervalMs, () => this.compute());
  }

  async compute(): Promise<void> {
    const row = await this.db.one<{ value: unknown }>(sql.COMPUTE_QUEUE_GAUGES, [ALIVE_WITHIN_SECONDS]);
    await this.db.exec(sql.SAVE_SNAPSHOT, [QUEUE_SNAPSHOT, JSON.stringify(row?.value ?? {})]);
  }
}
