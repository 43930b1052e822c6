import { Injectable } from '@nestjs/common';
import { AuditService } from '../audit/audit.service.js';
import { ApiError } from '../common/errors/api-error.js';
import { decodeTimeIdCursor } from '../common/pagination/cursor.js';
import { type CursorPage, timeIdPage } from '../common/pagination/cursor-page.js';
import type { ProjectRef } from '../projects/project.types.js';
import type { ListRunsQueryDto, TriggerWorkflowDto, UpsertWorkflowDto } from './dto/workflow.dto.js';
import { WorkflowEngine } from './engine/workflow-engine.js';
import { parseSteps, type WorkflowStep } from './workflow-steps.js';
import { referenceProblems, templatesUsed, triggeredBy } from './workflow-references.js';
import { convertLegacy0xSteps, isLegacy0xSteps } from './legacy-0x-steps.js';
import { TemplatesService } from '../templates/templates.service.js';
import type { RunRow, WorkflowRow } from './workflow.types.js';
import { WorkflowsRepository } from './workflows.repository.js';
import { isUuid } from '../domain/ids.js';

/**
 * Workflows one project may have. A trigger starts a run of every enabled workflow listening to
 * its event, in one statement, and the loop check reads the project's workflows (LIST_WORKFLOWS
 * reads 1 000): unbounded, one trigger could start any number of runs and a loop could hide past
 * what the check reads.
 */
export const MAX_WORKFLOWS_PER_PROJECT = 1000;

/** Workflow definitions, triggers and runs of one project. */
@Injectable()
export class WorkflowsService {
  constructor(
    private readonly repository: WorkflowsRepository,
    private readonly engine: WorkflowEngine,
    private readonly audit: AuditService,
    private readonly templates: TemplatesService,
  ) {}

  /** Steps in notifyd 0.x's language (`template`, a digest's `duration_secs`) in notifyd's (legacy-0x-steps.ts); other steps as given. */
  private fromLegacy0x(steps: unknown[]): unknown[] {
    return isLegacy0xSteps(steps) ? convertLegacy0xSteps(steps) : steps;
  }

  async upsert(project: ProjectRef, dto: UpsertWorkflowDto): Promise<WorkflowRow & { created: boolean }> {
    const parsed = parseSteps(this.fromLegacy0x(dto.steps));
    if ('problems' in parsed)
      throw ApiError.unprocessable('invalid_steps', parsed.problems.join('; '), { problems: parsed.problems });
    const problems = await this.checkReferences(project.id, dto.id, parsed.steps);
    if (problems.length) throw ApiError.unprocessable('invalid_steps', problems.join('; '), { problems });
    const row = await this.repository.upsert(
      project.id,
      {
        id: dto.id,
        name: dto.name,
        description: dto.description ?? null,
        triggerEvent: dto.trigger_event,
        steps: parsed.steps,
        enabled: dto.enabled ?? true,
      },
      MAX_WORKFLOWS_PER_PROJECT,
    );
    if (!row)
      throw ApiError.unprocessable(
        'too_many_workflows',
        `A project has at most ${MAX_WORKFLOWS_PER_PROJECT} workflows: delete one it no longer uses, or replace one (same id).`,
        { limit: MAX_WORKFLOWS_PER_PROJECT },
      );
    await this.audit.record({
      projectId: project.id,
      actor: 'api_key',
      action: row.created ? 'workflow.created' : 'workflow.updated',
      resource: dto.id,
    });
    return row;
  }

  /** The templates and workflows the steps name exist, and no trigger_workflow step closes a loop (workflow-references.ts). */
  private async checkReferences(projectId: string, id: string, steps: WorkflowStep[]): Promise<string[]> {
    // Every template the steps name, in one read (a template that does not exist is absent).
    const templateChannels: Map<string, Set<string> | undefined> = await this.templates.channelsOf(
      projectId,
      templatesUsed(steps),
    );
    // Only a definition that starts other workflows needs the project's graph.
    const triggers = new Map<string, string[]>();
    if (triggeredBy(steps).length)
      for (const w of await this.repository.list(projectId)) triggers.set(w.id, triggeredBy(w.steps));
    return referenceProblems(id, steps, { triggers, templateChannels });
  }

  list(project: ProjectRef): Promise<WorkflowRow[]> {
    return this.repository.list(project.id);
  }

  async get(project: ProjectRef, id: string): Promise<WorkflowRow> {
    const row = await this.repository.find(project.id, id);
    if (!row) throw ApiError.notFound('Workflow', id);
    return row;
  }

  async delete(project: ProjectRef, id: string): Promise<void> {
    if (!(await this.repository.delete(project.id, id))) throw ApiError.notFound('Workflow', id);
    await this.audit.record({ projectId: project.id, actor: 'api_key', action: 'workflow.deleted', resource: id });
  }

  /** Starts a run of every enabled workflow listening to the event; replays of an idempotency key start nothing. */
  async trigger(
    project: ProjectRef,
    dto: TriggerWorkflowDto,
  ): Promise<{ runs: { id: string; workflowId: string; created: boolean }[] }> {
    const runs = await this.repository.trigger(
      project.id,
      dto.event,
      dto.subscriber_id,
      dto.payload ?? {},
      dto.idempotency_key ?? null,
    );
    if (runs.some((r) => r.created)) this.engine.wake();
    return { runs };
  }

  async listRuns(project: ProjectRef, q: ListRunsQueryDto): Promise<CursorPage<RunRow>> {
    const limit = q.limit ?? 50;
    const rows = await this.repository.listRuns(project.id, {
      workflowId: q.workflow_id,
      subscriberId: q.subscriber_id,
      status: q.status,
      after: q.cursor ? decodeTimeIdCursor(q.cursor) : undefined,
      limit: limit + 1,
    });
    return timeIdPage(rows, limit);
  }

  async getRun(project: ProjectRef, id: string): Promise<RunRow> {
    const run = isUuid(id) ? await this.repository.findRun(project.id, id) : undefined;
    if (!run) throw ApiError.notFound('Workflow run', id.slice(0, 60));
    return run;
  }

  async cancelRun(project: ProjectRef, id: string): Promise<{ digestsCancelled: number }> {
    const run = await this.getRun(project, id);
    const cancelled = await this.repository.cancelRun(project.id, id);
    if (!cancelled)
      throw ApiError.conflict(
        'not_cancellable',
        `Run is ${run.status}; only pending, processing or waiting runs can be cancelled.`,
        { status: run.status },
      );
    await this.audit.record({
      projectId: project.id,
      actor: 'api_key',
      action: 'workflow_run.cancelled',
      resource: id,
    });
    return { digestsCancelled: cancelled.digestsCancelled };
  }
}
