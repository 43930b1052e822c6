import { Controller, Get, Query, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { AdminAuth } from '../common/auth/auth.decorators.js';
import { ApiErrors } from '../common/http/api-errors.decorator.js';
import { parseDigestFormat, parseDigestWindow } from './digest-window.js';
import { DigestService } from './digest.service.js';
import { DigestQueryDto, DigestReportDto } from './dto/digest.dto.js';
import { renderMarkdown } from './render/markdown.js';

@ApiTags('Admin: digest')
@Controller('v1/admin/digest')
export class DigestController {
  constructor(private readonly digest: DigestService) {}

  @Get()
  @AdminAuth({ readers: true })
  @ApiOperation({
    operationId: 'getDigest',
    summary: 'What needs attention: ranked findings with the action that fixes each, and the queue, outcomes and deliverability behind them',
  })
  @ApiProduces('application/json', 'text/markdown')
  @ApiOkResponse({ type: DigestReportDto, description: 'The report (JSON), or the same as Markdown with format=markdown' })
  @ApiErrors(400, 422)
  async getDigest(@Query() query: DigestQueryDto, @Res({ passthrough: true }) reply: FastifyReply): Promise<DigestReportDto | string> {
    const window = parseDigestWindow(query.window);
    const format = parseDigestFormat(query.format);
    const report = await this.digest.build({ window });
    if (format === 'json') return report;
    void reply.type('text/markdown; charset=utf-8');
    return renderMarkdown(report);
  }
}
