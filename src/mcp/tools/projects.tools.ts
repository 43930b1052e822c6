import { Injectable } from '@nestjs/common';
import { z } from 'zod';
import { CreateProjectDto, UpdateProjectDto } from '../../projects/dto/project.dto.js';
import { type ProjectRow, RATE_LIMIT_PER_MIN } from '../../projects/project.types.js';
import { ProjectsService } from '../../projects/projects.service.js';
import { CREATES, defineTool, DESTRUCTIVE_WRITE, IDEMPOTENT_WRITE, McpToolError, READ_ONLY } from '../mcp-tool.js';
import type { McpToolProvider } from '../mcp-tool-registry.js';
import { channelArg, deletedResult, projectIdArg } from './schemas.js';
import { validateDto } from './validate-dto.js';

/** A project as tools show it: never a key, not even its hint. */
const projectView = z.object({
  id: z.string(),
  name: z.string(),
  channels: z.array(z.string()),
  rate_limit_per_min: z.number(),
  from_email: z.string().nullable(),
  from_name: z.string().nullable(),
  settings: z.record(z.string(), z.unknown()),
  created_at: z.string(),
});

function present(p: ProjectRow): z.input<typeof projectView> {
  return {
    id: p.id,
    name: p.name,
    channels: p.channels,
    rate_limit_per_min: p.rateLimitPerMin,
    from_email: p.fromEmail,
    from_name: p.fromName,
    settings: p.settings,
    created_at: p.createdAt.toISOString(),
  };
}

const projectFields = {
  name: z.string().min(1).max(200),
  channels: z.array(channelArg).max(20),
  from_email: z.string().max(320),
  from_name: z.string().max(200),
  rate_limit_per_min: z.number().int().min(RATE_LIMIT_PER_MIN.min).max(RATE_LIMIT_PER_MIN.max),
  settings: z.record(z.string(), z.unknown()),
};

/**
 * Projects (/v1/admin/projects): list_projects, create_project, update_project (sender,
 * channels, rate; keys are never touched), delete_project.
 */
@Injectable()
export class ProjectsTools implements McpToolProvider {
  constructor(private readonly projects: ProjectsService) {}

  tools() {
    return [
      defineTool({
        name: 'list_projects',
        title: 'List projects',
        description:
          'Every project on this instance with its channels, sender (from_email, from_name), API rate limit and settings. Project ids are what the other tools take as project_id.',
        annotations: READ_ONLY,
        audience: 'operator',
        input: z.strictObject({}),
        output: z.object({ projects: z.array(projectView) }),
        run: async () => {
          const projects = (await this.projects.list()).map(present);
          return {
            structured: { projects },
            text: projects.length
              ? projects
                  .map(
                    (p) =>
                      `${p.id} (${p.name}): ${p.channels.join(', ')}; sender ${p.from_email ?? 'instance default'}`,
                  )
                  .join('\n')
              : 'No projects yet.',
          };
        },
      }),
      defineTool({
        name: 'update_project',
        title: 'Update a project',
        description:
          'Change a project’s name, channels, sender (from_email: "" or null clears it to the instance default; from_name), API rate_limit_per_min, or merge settings. ' +
          'The fix for a "sender missing" finding. Keys are never touched. Setting the same values again changes nothing.',
        annotations: IDEMPOTENT_WRITE,
        audience: 'operator',
        input: z.strictObject({
          id: projectIdArg.describe('Project id'),
          name: projectFields.name.optional(),
          channels: projectFields.channels.optional(),
          from_email: projectFields.from_email.nullable().optional(),
          from_name: projectFields.from_name.nullable().optional(),
          rate_limit_per_min: projectFields.rate_limit_per_min.optional(),
          settings: projectFields.settings
            .optional()
            .describe('Merged into the current settings (top-level keys replace)'),
        }),
        output: projectView,
        run: async ({ id, ...changes }, context) => {
          const project = present(
            await this.projects.update(id, await validateDto(UpdateProjectDto, changes), context.actor),
          );
          return {
            structured: project,
            text: `Project ${project.id} updated: ${Object.keys(changes).join(', ') || 'nothing changed'}.`,
          };
        },
      }),
      defineTool({
        name: 'create_project',
        title: 'Create a project',
        description:
          'Create a project: its id (the slug in keys and URLs), name, channels (default email and in_app), sender, API rate limit and settings. ' +
          'Its API key is generated and shown once in this result, as POST /v1/admin/projects shows it: store it now (rotate it later with rotate_project_key). ' +
          'An id already taken is refused (update_project changes an existing one).',
        annotations: CREATES,
        audience: 'operator',
        input: z.strictObject({
          id: projectIdArg.describe('Project id: 1–63 lowercase letters, digits, - or _, e.g. "acme"'),
          name: projectFields.name,
          channels: projectFields.channels.optional(),
          from_email: projectFields.from_email.optional(),
          from_name: projectFields.from_name.optional(),
          rate_limit_per_min: projectFields.rate_limit_per_min.optional().describe('Default 600'),
          settings: projectFields.settings.optional(),
        }),
        output: z.object({ project: projectView, api_key: z.string().describe('Shown once') }),
        run: async (body, context) => {
          const { project, apiKey } = await this.projects.create(
            await validateDto(CreateProjectDto, body),
            context.actor,
          );
          const view = present(project);
          return {
            structured: { project: view, api_key: apiKey },
            text: `Project ${view.id} (${view.name}) created on ${view.channels.join(', ')}. Its API key, shown this once (store it now): ${apiKey}`,
          };
        },
      }),
      defineTool({
        name: 'delete_project',
        title: 'Delete a project',
        description:
          'Delete a project with everything it owns: subscribers, jobs, templates, workflows, webhooks, its keys. Nothing can be recovered; its key stops working at once. ' +
          'Give confirm: the project id again, so a mistyped call deletes nothing.',
        annotations: DESTRUCTIVE_WRITE,
        audience: 'operator',
        input: z.strictObject({
          id: projectIdArg.describe('Project id'),
          confirm: z.string().max(63).describe('The project id again'),
        }),
        output: deletedResult,
        run: async ({ id, confirm }, context) => {
          if (confirm !== id)
            throw new McpToolError(`confirm: must repeat the project id ('${id}') to delete it; nothing was deleted.`);
          await this.projects.delete(id, context.actor);
          return { structured: { id, deleted: true }, text: `Project ${id} and everything it owned deleted.` };
        },
      }),
    ];
  }
}
