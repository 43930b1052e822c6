import { Query } from '@nestjs/common';
import { AdminController } from '../../projects/auth/auth.decorators.js';
import { Operation } from '../../common/http/operation.decorator.js';
import { TemplateMetricsDto, TemplateMetricsQueryDto } from './dto/template-metrics.dto.js';
import { TemplateMetricsService } from './template-metrics.service.js';

@AdminController('v1/admin/metrics', 'Metrics', { readers: true })
export class TemplateMetricsController {
  constructor(private readonly metrics: TemplateMetricsService) {}

  @Operation('GET /templates', [400, 422], {
    summary: 'Email funnel per template × hour or day: sent, failed, delivered, bounced, complained, opened, clicked',
  })
  async getTemplateMetrics(@Query() query: TemplateMetricsQueryDto): Promise<TemplateMetricsDto> {
    return this.metrics.funnel({ window: query.window, bucket: query.bucket, projectId: query.project_id });
  }
}
