import { Controller, Get, Param } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CurrentProject, ProjectAuth } from '../projects/auth/auth.decorators.js';
import { Operation } from '../common/http/operation.decorator.js';
import type { ProjectRef } from '../projects/project.types.js';
import { BatchStatusService } from './batch-status.service.js';
import { BatchStatusDto } from './dto/batch.dto.js';

@ApiTags('Sending')
@ProjectAuth()
@Controller('v1/batches')
export class BatchesController {
  constructor(private readonly batches: BatchStatusService) {}

  @Get(':id')
  @Operation('getBatch', [400, 404], {
    summary: 'How a batch is doing: queued, skipped by reason, sent, failed and bounced so far',
    description:
      'The id is the `batch_id` of a POST /v1/batch answer. Skipped pairs are those the call did not queue; the job counts are read from the jobs now ' +
      '(a job past its retention is no longer counted).',
  })
  getBatch(@CurrentProject() project: ProjectRef, @Param('id') id: string): Promise<BatchStatusDto> {
    return this.batches.status(id, project.id);
  }
}
