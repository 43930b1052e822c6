import { Header, Res } from '@nestjs/common';
import { ApiOkResponse } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { AdminController } from '../../projects/auth/auth.decorators.js';
import { MetricsSummaryDto } from './dto/metrics-summary.dto.js';
import { MetricsSummaryService } from './metrics-summary.service.js';
import { MetricsService } from './metrics.service.js';
import { Operation } from '../../common/http/operation.decorator.js';

@AdminController('v1/metrics', 'Metrics', { readers: true })
export class MetricsController {
  constructor(
    private readonly metrics: MetricsService,
    private readonly summary: MetricsSummaryService,
  ) {}

  @Operation('GET', [], {
    summary:
      'Counts as JSON (notifyd 0.x): live jobs by status, sent and failed in 24 h, subscribers, inbox messages, active workflow runs, uptime',
  })
  @Header('cache-control', 'no-store')
  @ApiOkResponse({
    type: MetricsSummaryDto,
    description: 'Across all projects (admin or read-only key); counted when asked, so poll it, do not scrape it',
  })
  getMetrics(): Promise<MetricsSummaryDto> {
    return this.summary.summary();
  }

  @Operation('GET /prometheus', [], {
    summary:
      'Prometheus text: outcomes, provider errors, send latency, lane pauses, queue depth and oldest pending age, failovers',
  })
  @Header('cache-control', 'no-store')
  @ApiOkResponse({
    description:
      'Prometheus text exposition format 0.0.4 (admin or read-only key; Prometheus can send it as bearer_token)',
    content: {
      'text/plain': {
        schema: { type: 'string' },
        example: '# TYPE notifyd_jobs_queue_depth gauge\nnotifyd_jobs_queue_depth{status="pending"} 12\n',
      },
    },
  })
  async getPrometheusMetrics(@Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    const text = await this.metrics.render();
    void reply.type(this.metrics.contentType);
    return text;
  }
}
