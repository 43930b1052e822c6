import { Body } from '@nestjs/common';
import { CurrentProject } from '../projects/auth/auth.decorators.js';
import { ProjectController } from '../projects/auth/project-controller.decorator.js';
import { Operation } from '../common/http/operation.decorator.js';
import type { ProjectRef } from '../projects/project.types.js';
import { BatchService } from './batch.service.js';
import { BatchRequestDto, BatchResponseDto } from './dto/batch.dto.js';
import { SendRequestDto, SendResponseDto } from './dto/send.dto.js';
import { EnqueueService } from './enqueue.service.js';

@ProjectController('v1', 'Sending')
export class SendController {
  constructor(
    private readonly enqueue: EnqueueService,
    private readonly batches: BatchService,
  ) {}

  @Operation('POST /send', [400, 409, 413, 415, 422], {
    summary: 'Queue a notification on one or more channels',
    description:
      'Queues one job per channel for `to` or a subscriber. Channels that cannot be served are listed in `skipped`; ' +
      'when nothing can be queued because a channel is not configured the answer is 422 channel_not_configured.',
  })
  sendNotification(@CurrentProject() project: ProjectRef, @Body() body: SendRequestDto): Promise<SendResponseDto> {
    return this.enqueue.send(project, body);
  }

  @Operation('POST /schedule', [400, 409, 413, 415, 422], {
    summary: 'Queue a notification for later (alias of POST /v1/send with scheduled_at)',
  })
  scheduleNotification(@CurrentProject() project: ProjectRef, @Body() body: SendRequestDto): Promise<SendResponseDto> {
    return this.enqueue.send(project, body);
  }

  @Operation('POST /batch', [400, 413, 415, 422], {
    summary: 'Queue one message for many subscribers in one call (default priority bulk)',
  })
  sendBatch(@CurrentProject() project: ProjectRef, @Body() body: BatchRequestDto): Promise<BatchResponseDto> {
    return this.batches.batch(project, body);
  }
}
