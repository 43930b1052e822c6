import { Param, Query } from '@nestjs/common';
import { AdminController } from '../projects/auth/auth.decorators.js';
import { Operation } from '../common/http/operation.decorator.js';
import { presentCursorPage } from '../common/pagination/cursor-page.js';
import { ProjectsService } from '../projects/projects.service.js';
import { ListRunsQueryDto, WorkflowListDto, WorkflowRunListDto, WorkflowRunResponseDto } from './dto/workflow.dto.js';
import { presentRun, presentWorkflowList } from './workflow.presenter.js';
import { WorkflowsService } from './workflows.service.js';

/** Any project's workflows and runs for operators (`/v1/admin/projects/:id/workflows`), read-only. */
@AdminController('v1/admin/projects/:id/workflows', 'Admin: workflows', { readers: true })
export class AdminWorkflowsController {
  constructor(
    private readonly workflows: WorkflowsService,
    private readonly projects: ProjectsService,
  ) {}

  @Operation('GET', [404], 'A project’s workflows with their steps')
  async adminListWorkflows(@Param('id') projectId: string): Promise<WorkflowListDto> {
    return presentWorkflowList(await this.workflows.list(await this.projects.get(projectId)));
  }

  @Operation('GET /runs', [400, 404, 422], {
    summary: 'A project’s workflow runs, newest first, filtered by workflow, subscriber and status',
  })
  async adminListWorkflowRuns(
    @Param('id') projectId: string,
    @Query() query: ListRunsQueryDto,
  ): Promise<WorkflowRunListDto> {
    return presentCursorPage(await this.workflows.listRuns(await this.projects.get(projectId), query), presentRun);
  }

  @Operation('GET /runs/:run_id', [404], 'One of a project’s runs: where it stands and what each step did')
  async adminGetWorkflowRun(
    @Param('id') projectId: string,
    @Param('run_id') id: string,
  ): Promise<WorkflowRunResponseDto> {
    return { success: true, run: presentRun(await this.workflows.getRun(await this.projects.get(projectId), id)) };
  }
}
