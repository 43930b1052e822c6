import { Global, Module } from '@nestjs/common';
import { JobsModule } from '../jobs/jobs.module.js';
import { MetricsController } from './metrics/metrics.controller.js';
import { MetricsService } from './metrics/metrics.service.js';
import { QueueGaugesTask } from './metrics/queue-gauges.task.js';

/** Metrics (Prometheus, one registry per app) and the queue gauges computed once per tick. */
@Global()
@Module({
  imports: [JobsModule],
  controllers: [MetricsController],
  providers: [MetricsService, QueueGaugesTask],
  exports: [MetricsService],
})
export class ObservabilityModule {}
