import { Module } from '@nestjs/common';
import { JobsModule } from '../jobs/jobs.module.js';
import { MetricsSummaryService } from './metrics/metrics-summary.service.js';
import { MetricsService } from './metrics/metrics.service.js';
import { QueueGaugesTask } from './metrics/queue-gauges.task.js';
import { TemplateMetricsService } from './template-metrics/template-metrics.service.js';
import { PeriodicModule } from '../periodic/periodic.module.js';

/** Metrics (Prometheus, one registry per app), the queue gauges computed once per tick, the template funnel. */
@Module({
  imports: [PeriodicModule, JobsModule],
  providers: [MetricsService, MetricsSummaryService, QueueGaugesTask, TemplateMetricsService],
  exports: [MetricsService, MetricsSummaryService, TemplateMetricsService],
})
export class ObservabilityModule {}
