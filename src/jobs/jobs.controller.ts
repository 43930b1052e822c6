import { Param, Query } from '@nestjs/common';
import { ApiKeyActor } from '../projects/auth/api-key-actor.decorator.js';
import { CurrentProject } from '../projects/auth/auth.decorators.js';
import { ProjectController } from '../projects/auth/project-controller.decorator.js';
import { Operation } from '../common/http/operation.decorator.js';
import type { ProjectRef } from '../projects/project.types.js';
import type { Actor } from '../domain/actor.js';
import { CancelJobResponseDto, JobDto, RetryJobResponseDto } from './dto/job.dto.js';
import { WaitQueryDto } from './dto/job-outcome.dto.js';
import { JobsService } from './jobs.service.js';
import { OutcomeWaitService } from './wait/outcome-wait.service.js';
import { parseWait } from './wait/wait-duration.js';

@ProjectController('v1/jobs', 'Jobs')
export class JobsController {
  constructor(
    private readonly jobs: JobsService,
    private readonly outcomes: OutcomeWaitService,
  ) {}

  @Operation('GET /:id', [400, 404, 422], {
    summary: 'Get a job: status, attempts, provider answer and evidence',
    description:
      'With `wait` (e.g. `?wait=10s`, at most 30s) the answer is held until the job is final or the time is up; a status that is not final then means the time ran out.',
  })
  async getJob(
    @CurrentProject() project: ProjectRef,
    @Param('id') id: string,
    @Query() query: WaitQueryDto,
  ): Promise<JobDto> {
    const job =
      query.wait === undefined
        ? await this.jobs.get(id, project.id)
        : await this.outcomes.job(id, project.id, parseWait(query.wait) ?? 0);
    return this.jobs.detail(job);
  }

  @Operation('DELETE /:id', [400, 404, 409], 'Cancel a job that has not been sent (pending or retry)')
  async cancelJob(
    @CurrentProject() project: ProjectRef,
    @Param('id') id: string,
    @ApiKeyActor() by: Actor,
  ): Promise<CancelJobResponseDto> {
    await this.jobs.cancel(id, project.id, by);
    return { success: true, id };
  }

  @Operation('POST /:id/retry', [400, 404, 409], 'Re-queue a failed or cancelled job with fresh attempts')
  async retryJob(
    @CurrentProject() project: ProjectRef,
    @Param('id') id: string,
    @ApiKeyActor() by: Actor,
  ): Promise<RetryJobResponseDto> {
    const job = await this.jobs.retry(id, project.id, by);
    return { success: true, job: { id: job.id, project_id: job.projectId, channel: job.channel, status: job.status } };
  }
}
