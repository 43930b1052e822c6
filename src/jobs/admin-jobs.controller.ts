import { Body, Param, Query } from '@nestjs/common';
import { AdminController, CurrentOperator, ReaderAllowed } from '../projects/auth/auth.decorators.js';
import { Operation } from '../common/http/operation.decorator.js';
import type { Actor } from '../domain/actor.js';
import {
  AdminJobListDto,
  AdminJobSearchQueryDto,
  CancelJobResponseDto,
  JobDto,
  RetryJobResponseDto,
  SendTestRequestDto,
  SendTestResponseDto,
} from './dto/job.dto.js';
import { presentAdminJob, presentJobToOperator } from './job.presenter.js';
import { JobsService } from './jobs.service.js';

@AdminController('v1/admin', 'Admin: jobs')
export class AdminJobsController {
  constructor(private readonly jobs: JobsService) {}

  @Operation('GET /jobs', [400, 422], {
    summary: 'Search jobs across projects (recipients masked; default: last 7 days, 50 rows, newest first)',
    description:
      'A page holds at most `limit` (500) jobs; `next_cursor` (null on the last page) passed as `cursor` reads the next, older page.',
  })
  @ReaderAllowed()
  async searchJobs(@Query() query: AdminJobSearchQueryDto): Promise<AdminJobListDto> {
    const page = await this.jobs.searchPage(query);
    const jobs = page.items.map(presentAdminJob);
    return { jobs, count: jobs.length, next_cursor: page.nextCursor };
  }

  @Operation('GET /jobs/:id', [400, 404], 'Get any project’s job (recipient masked)')
  @ReaderAllowed()
  async adminGetJob(@Param('id') id: string): Promise<JobDto> {
    return presentJobToOperator(await this.jobs.detail(await this.jobs.get(id, null)));
  }

  @Operation('POST /jobs/:id/retry', [400, 404, 409], 'Re-queue any project’s failed or cancelled job')
  async adminRetryJob(@Param('id') id: string, @CurrentOperator() by: Actor): Promise<RetryJobResponseDto> {
    const job = await this.jobs.retry(id, null, by);
    return { success: true, job: { id: job.id, project_id: job.projectId, channel: job.channel, status: job.status } };
  }

  @Operation('POST /jobs/:id/cancel', [400, 404, 409], 'Cancel any project’s pending or retry job')
  async adminCancelJob(@Param('id') id: string, @CurrentOperator() by: Actor): Promise<CancelJobResponseDto> {
    await this.jobs.cancel(id, null, by);
    return { success: true, id };
  }

  @Operation('POST /send-test', [422], 'Send a real test message through a project’s channel (priority high)')
  async sendTest(@Body() body: SendTestRequestDto, @CurrentOperator() by: Actor): Promise<SendTestResponseDto> {
    const job = await this.jobs.sendTest(body, by);
    return { id: job.id, project_id: job.projectId, channel: job.channel, status: 'pending' };
  }
}
