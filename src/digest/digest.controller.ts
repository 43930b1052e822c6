import { Body, Query, Res } from '@nestjs/common';
import { ApiOkResponse, ApiProduces } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { AdminController, CurrentOperator, ReaderAllowed } from '../projects/auth/auth.decorators.js';
import { Operation } from '../common/http/operation.decorator.js';
import { parseDigestFormat, parseDigestWindow } from '../common/validation/digest-window.js';
import { DigestService } from './digest.service.js';
import { DigestNotifyRequestDto, DigestNotifyResponseDto, DigestQueryDto, DigestReportDto } from './dto/digest.dto.js';
import { DigestNotifier } from './notify/digest-notifier.service.js';
import { renderMarkdown } from './render/markdown.js';
import type { Actor } from '../domain/actor.js';

@AdminController('v1/admin/digest', 'Admin: digest')
export class DigestController {
  constructor(
    private readonly digest: DigestService,
    private readonly notifier: DigestNotifier,
  ) {}

  @Operation('GET', [400, 422], {
    summary:
      'What needs attention: ranked findings with the action that fixes each, and the queue, outcomes and deliverability behind them',
  })
  @ReaderAllowed()
  @ApiProduces('application/json', 'text/markdown')
  @ApiOkResponse({
    type: DigestReportDto,
    description: 'The report (JSON), or the same as Markdown with format=markdown',
  })
  async getDigest(
    @Query() query: DigestQueryDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<DigestReportDto | string> {
    const window = parseDigestWindow(query.window);
    const format = parseDigestFormat(query.format);
    const report = await this.digest.build({ window });
    if (format === 'json') return report;
    void reply.type('text/markdown; charset=utf-8');
    return renderMarkdown(report);
  }

  @Operation('POST /notify', [400, 422, 502], {
    summary: 'Send the digest now to Slack, Discord, Telegram or email (the given target, else DIGEST_NOTIFY)',
  })
  async notifyDigest(
    @Body() body: DigestNotifyRequestDto,
    @CurrentOperator() by: Actor,
  ): Promise<DigestNotifyResponseDto> {
    const sent = await this.notifier.notify({ to: body.to, window: body.window }, by);
    return {
      success: true,
      provider: sent.provider,
      provider_message_id: sent.provider_message_id,
      window: sent.window,
      summary: sent.summary,
    };
  }
}
