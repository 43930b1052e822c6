import { Param } from '@nestjs/common';
import { CurrentProject } from '../projects/auth/auth.decorators.js';
import { ProjectController } from '../projects/auth/project-controller.decorator.js';
import { Operation } from '../common/http/operation.decorator.js';
import type { ProjectRef } from '../projects/project.types.js';
import { BatchStatusService } from './batch-status.service.js';
import { BatchStatusDto } from './dto/batch.dto.js';

@ProjectController('v1/batches', 'Sending')
export class BatchesController {
  constructor(private readonly batches: BatchStatusService) {}

  @Operation('GET /:id', [400, 404], {
    summary: 'How a batch is doing: queued, skipped by reason, sent, failed and bounced so far',
    description:
      'The id is the `batch_id` of a POST /v1/batch answer. Skipped pairs are those the call did not queue; the job counts are read from the jobs now ' +
      '(a job past its retention is no longer counted).',
  })
  getBatch(@CurrentProject() project: ProjectRef, @Param('id') id: string): Promise<BatchStatusDto> {
    return this.batches.status(id, project.id);
  }
}
