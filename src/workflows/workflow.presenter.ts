import { isoOrNull } from '../common/http/iso-timestamp.js';
import type { WorkflowDto, WorkflowListDto, WorkflowRunDto } from './dto/workflow.dto.js';
import type { RunRow, WorkflowRow } from './workflow.types.js';

export function presentWorkflow(w: WorkflowRow): WorkflowDto {
  return {
    id: w.id,
    name: w.name,
    description: w.description,
    trigger_event: w.triggerEvent,
    steps: w.steps as unknown as Record<string, unknown>[],
    enabled: w.enabled,
    created_at: isoOrNull(w.createdAt)!,
    updated_at: isoOrNull(w.updatedAt)!,
  };
}

/** A project's workflows as every listing answers them (project key, operators, MCP). */
export function presentWorkflowList(rows: readonly WorkflowRow[]): WorkflowListDto {
  const workflows = rows.map(presentWorkflow);
  return { workflows, count: workflows.length };
}

export function presentRun(r: RunRow): WorkflowRunDto {
  return {
    id: r.id,
    workflow_id: r.workflowId,
    subscriber_id: r.subscriberId,
    trigger_event: r.triggerEvent,
    status: r.status,
    current_step: r.currentStep,
    resume_at: r.status === 'waiting' || r.status === 'pending' ? isoOrNull(r.runAt) : null,
    outcome: r.outcome,
    error: r.error,
    payload: r.payload,
    history: r.history.map((h) => ({ ...h, result: h.result })),
    triggered_by: r.context.parent
      ? { run_id: r.context.parent.run_id, workflow_id: r.context.parent.workflow_id, depth: r.context.depth ?? 1 }
      : null,
    created_at: isoOrNull(r.createdAt)!,
    updated_at: isoOrNull(r.updatedAt)!,
    finished_at: isoOrNull(r.finishedAt),
  };
}
