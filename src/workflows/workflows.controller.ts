import { Body, Param, Query } from '@nestjs/common';
import { CurrentProject } from '../projects/auth/auth.decorators.js';
import { ProjectController } from '../projects/auth/project-controller.decorator.js';
import { Operation } from '../common/http/operation.decorator.js';
import { presentCursorPage } from '../common/pagination/cursor-page.js';
import type { ProjectRef } from '../projects/project.types.js';
import {
  CancelRunResponseDto,
  DeleteWorkflowResponseDto,
  ListRunsQueryDto,
  TriggerWorkflowDto,
  TriggerWorkflowResponseDto,
  UpsertWorkflowDto,
  UpsertWorkflowResponseDto,
  WorkflowListDto,
  WorkflowResponseDto,
  WorkflowRunListDto,
  WorkflowRunResponseDto,
} from './dto/workflow.dto.js';
import { presentRun, presentWorkflow, presentWorkflowList } from './workflow.presenter.js';
import { WorkflowsService } from './workflows.service.js';

@ProjectController('v1/workflows', 'Workflows')
export class WorkflowsController {
  constructor(private readonly workflows: WorkflowsService) {}

  @Operation('POST', [400, 422], {
    summary:
      'Create or replace a workflow (send, delay, delay_until, condition, branch, throttle, digest, trigger_workflow steps)',
  })
  async upsertWorkflow(
    @CurrentProject() project: ProjectRef,
    @Body() body: UpsertWorkflowDto,
  ): Promise<UpsertWorkflowResponseDto> {
    const row = await this.workflows.upsert(project, body);
    return { success: true, id: row.id, project_id: project.id, created: row.created, workflow: presentWorkflow(row) };
  }

  @Operation('GET', [400], 'List this project’s workflows')
  async listWorkflows(@CurrentProject() project: ProjectRef): Promise<WorkflowListDto> {
    return presentWorkflowList(await this.workflows.list(project));
  }

  @Operation('POST /trigger', [400, 422], 'Send an event: starts a run of every enabled workflow listening to it')
  async triggerWorkflow(
    @CurrentProject() project: ProjectRef,
    @Body() body: TriggerWorkflowDto,
  ): Promise<TriggerWorkflowResponseDto> {
    const { runs } = await this.workflows.trigger(project, body);
    return {
      success: true,
      event: body.event,
      workflow_runs: runs.map((r) => r.id),
      deduplicated: runs.length > 0 && runs.every((r) => !r.created),
    };
  }

  @Operation('GET /runs', [400, 422], 'List runs, newest first, filtered by workflow, subscriber and status')
  async listWorkflowRuns(
    @CurrentProject() project: ProjectRef,
    @Query() query: ListRunsQueryDto,
  ): Promise<WorkflowRunListDto> {
    return presentCursorPage(await this.workflows.listRuns(project, query), presentRun);
  }

  @Operation('GET /runs/:id', [404], 'One run: where it stands and what each step did')
  async getWorkflowRun(
    @CurrentProject() project: ProjectRef,
    @Param('id') id: string,
  ): Promise<WorkflowRunResponseDto> {
    return { success: true, run: presentRun(await this.workflows.getRun(project, id)) };
  }

  @Operation('DELETE /runs/:id', [404, 409], 'Cancel a run that has not finished (and a digest it opened)')
  async cancelWorkflowRun(
    @CurrentProject() project: ProjectRef,
    @Param('id') id: string,
  ): Promise<CancelRunResponseDto> {
    const { digestsCancelled } = await this.workflows.cancelRun(project, id);
    return { success: true, id, digests_cancelled: digestsCancelled };
  }

  @Operation('GET /:id', [404], 'Get one workflow with its steps')
  async getWorkflow(@CurrentProject() project: ProjectRef, @Param('id') id: string): Promise<WorkflowResponseDto> {
    return { success: true, workflow: presentWorkflow(await this.workflows.get(project, id)) };
  }

  @Operation('DELETE /:id', [404], 'Delete a workflow with its runs, digests and throttles')
  async deleteWorkflow(
    @CurrentProject() project: ProjectRef,
    @Param('id') id: string,
  ): Promise<DeleteWorkflowResponseDto> {
    await this.workflows.delete(project, id);
    return { success: true, id };
  }
}
