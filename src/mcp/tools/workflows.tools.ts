import { Injectable } from '@nestjs/common';
import { z } from 'zod';
import { ListRunsQueryDto, TriggerWorkflowDto } from '../../workflows/dto/workflow.dto.js';
import { presentRun, presentWorkflowList } from '../../workflows/workflow.presenter.js';
import { WorkflowsService } from '../../workflows/workflows.service.js';
import { defineTool, DESTRUCTIVE_WRITE, READ_ONLY, SENDS_MESSAGE } from '../mcp-tool.js';
import type { McpToolProvider } from '../mcp-tool-registry.js';
import { pageArgs, projectIdArg } from './schemas.js';
import { validateDto } from './validate-dto.js';

export const workflowView = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  trigger_event: z.string(),
  steps: z.array(z.record(z.string(), z.unknown())),
  enabled: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});

const runView = z.object({
  id: z.string(),
  workflow_id: z.string(),
  subscriber_id: z.string(),
  trigger_event: z.string(),
  status: z.string(),
  current_step: z.number(),
  resume_at: z.string().nullable(),
  outcome: z.string().nullable(),
  error: z.string().nullable(),
  /** The run whose trigger_workflow step started this one. */
  triggered_by: z.object({ run_id: z.string(), workflow_id: z.string(), depth: z.number() }).nullable(),
  created_at: z.string(),
  finished_at: z.string().nullable(),
});

const runDetail = runView.extend({
  payload: z.record(z.string(), z.unknown()).describe('The trigger payload'),
  history: z
    .array(
      z.object({
        step: z.number(),
        type: z.string(),
        at: z.string(),
        result: z.string().optional(),
        job_ids: z.array(z.string()).optional(),
        run_id: z.string().optional(),
        detail: z.string().optional(),
      }),
    )
    .describe('What each step did, in order'),
  updated_at: z.string(),
});

/** The columns of get_workflow_run's text table: one row per step it ran. */
const HISTORY_COLUMNS = ['step', 'type', 'at', 'result', 'job_ids', 'run_id', 'detail'] as const;

/** Event workflows: list_workflows, list_workflow_runs, get_workflow_run, trigger_workflow, cancel_workflow_run. */
@Injectable()
export class WorkflowsTools implements McpToolProvider {
  constructor(private readonly workflows: WorkflowsService) {}

  tools() {
    return [
      defineTool({
        name: 'list_workflows',
        title: 'List workflows',
        description:
          'A project’s workflows: the event that triggers each, its steps (send, delay, delay_until, condition, branch, throttle, digest, trigger_workflow) and whether it is enabled.',
        annotations: READ_ONLY,
        audience: 'project',
        input: z.strictObject({ project_id: projectIdArg.optional() }),
        output: z.object({ workflows: z.array(workflowView), count: z.number() }),
        run: async ({ project_id: projectId }, context) => {
          const project = await context.scopedProject(projectId);
          const list = presentWorkflowList(await this.workflows.list(project));
          return {
            structured: list,
            text: list.count
              ? list.workflows
                  .map(
                    (w) => `${w.id} on ${w.trigger_event}: ${w.steps.length} step(s)${w.enabled ? '' : ' (disabled)'}`,
                  )
                  .join('\n')
              : 'No workflows.',
          };
        },
      }),
      defineTool({
        name: 'list_workflow_runs',
        title: 'List workflow runs',
        description:
          'Workflow runs, newest first, filtered by workflow, subscriber and status (waiting, failed…): where each run stands, when it resumes, how it ended.',
        annotations: READ_ONLY,
        audience: 'project',
        input: z.strictObject({
          project_id: projectIdArg.optional(),
          workflow_id: z.string().min(1).max(200).optional(),
          subscriber_id: z.string().min(1).max(255).optional(),
          status: z.string().min(1).max(20).optional(),
          ...pageArgs,
        }),
        output: z.object({ runs: z.array(runView), next_cursor: z.string().nullable() }),
        run: async ({ project_id: projectId, ...query }, context) => {
          const project = await context.scopedProject(projectId);
          const page = await this.workflows.listRuns(project, await validateDto(ListRunsQueryDto, query));
          const runs = page.items.map((r) => {
            const { payload: _payload, history: _history, updated_at: _updated, ...view } = presentRun(r);
            return view;
          });
          return {
            structured: { runs, next_cursor: page.nextCursor },
            text: runs.length
              ? runs
                  .map((r) => `${r.id} ${r.workflow_id} for ${r.subscriber_id}: ${r.status} at step ${r.current_step}`)
                  .join('\n')
              : 'No runs.',
          };
        },
      }),
      defineTool({
        name: 'get_workflow_run',
        title: 'One workflow run',
        description:
          'One workflow run with its trigger payload and step history (what each step did: sent with its job ids, waited, branched, throttled…), as GET /v1/workflows/runs/:id. ' +
          'list_workflow_runs shows where runs stand; this shows how one got there. Follow a job id with get_job.',
        annotations: READ_ONLY,
        audience: 'project',
        input: z.strictObject({
          project_id: projectIdArg.optional(),
          id: z
            .uuid({ message: 'must be a run id (a UUID from list_workflow_runs)' })
            .describe('Run id from list_workflow_runs'),
        }),
        output: runDetail,
        run: async ({ project_id: projectId, id }, context) => {
          const project = await context.scopedProject(projectId);
          const run = presentRun(await this.workflows.getRun(project, id));
          return {
            structured: run,
            text: `Run ${run.id} of ${run.workflow_id} for ${run.subscriber_id}: ${run.status} at step ${run.current_step}${run.outcome ? ` (${run.outcome})` : ''}${run.error ? `: ${run.error}` : ''}; ${run.history.length} step(s) ran.`,
            table: run.history.length ? { rows: run.history, columns: HISTORY_COLUMNS } : undefined,
          };
        },
      }),
      defineTool({
        name: 'trigger_workflow',
        title: 'Trigger a workflow',
        description:
          'Send an event for a subscriber: starts a run of every enabled workflow listening to it, which may send messages. Use idempotency_key so a repeated call starts nothing twice.',
        annotations: SENDS_MESSAGE,
        audience: 'project',
        input: z.strictObject({
          project_id: projectIdArg.optional(),
          event: z.string().min(1).max(200),
          subscriber_id: z.string().min(1).max(255),
          payload: z.record(z.string(), z.unknown()).optional(),
          idempotency_key: z.string().max(200).optional(),
        }),
        output: z.object({ workflow_runs: z.array(z.string()), deduplicated: z.boolean() }),
        run: async ({ project_id: projectId, ...body }, context) => {
          const project = await context.scopedProject(projectId);
          const { runs } = await this.workflows.trigger(project, await validateDto(TriggerWorkflowDto, body));
          const deduplicated = runs.length > 0 && runs.every((r) => !r.created);
          return {
            structured: { workflow_runs: runs.map((r) => r.id), deduplicated },
            text: runs.length
              ? `${runs.length} run(s) ${deduplicated ? 'already started by an earlier call' : 'started'}.`
              : `No enabled workflow listens to '${body.event}'.`,
          };
        },
      }),
      defineTool({
        name: 'cancel_workflow_run',
        title: 'Cancel a workflow run',
        description:
          'Stop a workflow run where it stands: no further step runs (messages it already queued are not recalled; cancel those with cancel_job).',
        annotations: DESTRUCTIVE_WRITE,
        audience: 'project',
        input: z.strictObject({
          project_id: projectIdArg.optional(),
          id: z.string().min(1).max(64).describe('Run id from list_workflow_runs'),
        }),
        output: z.object({ id: z.string(), cancelled: z.boolean(), digests_cancelled: z.number() }),
        run: async ({ project_id: projectId, id }, context) => {
          const project = await context.scopedProject(projectId);
          const { digestsCancelled } = await this.workflows.cancelRun(project, id);
          return {
            structured: { id, cancelled: true, digests_cancelled: digestsCancelled },
            text: `Run ${id} cancelled.`,
          };
        },
      }),
    ];
  }
}
