import { Injectable } from '@nestjs/common';
import { z } from 'zod';
import { STEPS_SCHEMA, UpsertWorkflowDto } from '../../workflows/dto/workflow.dto.js';
import { presentWorkflow } from '../../workflows/workflow.presenter.js';
import { WorkflowsService } from '../../workflows/workflows.service.js';
import { defineTool, IDEMPOTENT_WRITE } from '../mcp-tool.js';
import type { McpToolProvider } from '../mcp-tool-registry.js';
import { deleteTool } from './delete-tool.js';
import { projectIdArg } from './schemas.js';
import { validateDto } from './validate-dto.js';
import { workflowView } from './workflows.tools.js';

/** Defining workflows (POST and DELETE /v1/workflows) through WorkflowsService: the same step checks. */
@Injectable()
export class WorkflowDefinitionsTools implements McpToolProvider {
  constructor(private readonly workflows: WorkflowsService) {}

  tools() {
    return [
      defineTool({
        name: 'upsert_workflow',
        title: 'Create or replace a workflow',
        description:
          'Create a workflow, or replace the one with this id: the event that triggers it and its steps (1–50). ' +
          `${STEPS_SCHEMA.description} ` +
          'The steps are checked as POST /v1/workflows checks them (a bad step is named). Runs already started keep going. Writing the same workflow again changes nothing.',
        annotations: IDEMPOTENT_WRITE,
        audience: 'project',
        input: z.strictObject({
          project_id: projectIdArg.optional(),
          id: z.string().min(1).max(100).describe('Workflow id: letters, digits, _ . : or -'),
          name: z.string().min(1).max(200),
          description: z.string().max(1000).optional(),
          trigger_event: z.string().min(1).max(100).describe('The event that starts it, e.g. user.signup'),
          steps: z.array(z.record(z.string(), z.unknown())).min(1).max(50),
          enabled: z.boolean().optional(),
        }),
        output: z.object({ created: z.boolean(), workflow: workflowView }),
        run: async ({ project_id: projectId, ...body }, context) => {
          const project = await context.scopedProject(projectId);
          const row = await this.workflows.upsert(project, await validateDto(UpsertWorkflowDto, body));
          const workflow = presentWorkflow(row);
          return {
            structured: { created: row.created, workflow },
            text: `Workflow ${workflow.id} of ${project.id} ${row.created ? 'created' : 'replaced'}: on ${workflow.trigger_event}, ${workflow.steps.length} step(s)${workflow.enabled ? '' : ' (disabled)'}.`,
            table: {
              rows: workflow.steps.map(({ type, ...detail }, i) => ({ step: i + 1, type, detail })),
              columns: ['step', 'type', 'detail'],
            },
          };
        },
      }),
      deleteTool({
        name: 'delete_workflow',
        title: 'Delete a workflow',
        description:
          'Delete a workflow with its runs, digests and throttles: runs waiting on a delay stop. Messages it already queued are not recalled.',
        id: z.string().min(1).max(100).describe('Workflow id from list_workflows'),
        remove: async (id, projectId, context) => {
          const project = await context.scopedProject(projectId);
          await this.workflows.delete(project, id);
          return `Workflow ${id} of ${project.id} deleted.`;
        },
      }),
    ];
  }
}
