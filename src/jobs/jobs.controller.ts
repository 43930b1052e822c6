import { Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentProject, ProjectAuth } from '../common/auth/auth.decorators.js';
import { ApiErrors } from '../common/http/api-errors.decorator.js';
import type { ProjectRef } from '../projects/project.types.js';
import { CancelJobResponseDto, JobDto, RetryJobResponseDto } from './dto/job.dto.js';
import { presentJob } from './job.presenter.js';
import { JobsService } from './jobs.service.js';

@ApiTags('Jobs')
@ProjectAuth()
@Controller('v1/jobs')
export class JobsController {
  constructor(private readonly jobs: JobsService) {}

  @Get(':id')
  @ApiOperation({ operationId: 'getJob', summary: 'Get a job: status, attempts, provider answer and evidence' })
  @ApiErrors(400, 404)
  async getJob(@CurrentProject() project: ProjectRef, @Param('id') id: string): Promise<JobDto> {
    return presentJob(await this.jobs.get(id, project.id));
  }

  @Delete(':id')
  @ApiOperation({ operationId: 'cancelJob', summary: 'Cancel a job that has not been sent (pending or retry)' })
  @ApiErrors(400, 404, 409)
  async cancelJob(@CurrentProject() project: ProjectRef, @Param('id') id: string): Promise<CancelJobResponseDto> {
    await this.jobs.cancel(id, project.id, { actor: 'api_key' });
    return { success: true, id };
  }

  @Post(':id/retry')
  @HttpCode(200)
  @ApiOperation({ operationId: 'retryJob', summary: 'Re-queue a failed or cancelled job with fresh attempts' })
  @ApiErrors(400, 404, 409)
  async retryJob(@CurrentProject() project: ProjectRef, @Param('id') id: string): Promise<RetryJobResponseDto> {
    const job = await this.jobs.retry(id, project.id, { actor: 'api_key' });
    return { success: true, job: { id: job.id, project_id: job.projectId, channel: job.channel, status: job.status } };
  }
}
