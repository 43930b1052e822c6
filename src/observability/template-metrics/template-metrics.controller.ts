import { Controller, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AdminAuth } from '../../projects/auth/auth.decorators.js';
import { Operation } from '../../common/http/operation.decorator.js';
import { TemplateMetricsDto, TemplateMetricsQueryDto } from './dto/template-metrics.dto.js';
import { TemplateMetricsService } from './template-metrics.service.js';

@ApiTags('Metrics')
@Controller('v1/admin/metrics')
export class TemplateMetricsController {
  constructor(private readonly metrics: TemplateMetricsService) {}

  @Operation('GET /templates', [400, 422], {
    summary: 'Email funnel per template × hour or day: sent, failed, delivered, bounced, complained, opened, clicked',
  })
  @AdminAuth({ readers: true })
  async getTemplateMetrics(@Query() query: TemplateMetricsQueryDto): Promise<TemplateMetricsDto> {
    return this.metrics.funnel({ window: query.window, bucket: query.bucket, projectId: query.project_id });
  }
}
