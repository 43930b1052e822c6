import { Injectable, type OnModuleInit } from '@nestjs/common';
import { z } from 'zod';
import { UpdateProjectDto } from '../../projects/dto/project.dto.js';
import type { ProjectRow } from '../../projects/project.types.js';
import { ProjectsService } from '../../projects/projects.service.js';
import { McpToolRegistry } from '../mcp-tool-registry.js';
import { defineTool, IDEMPOTENT_WRITE, READ_ONLY } from '../mcp-tool.js';
import { channelArg, projectIdArg } from './schemas.js';
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
  return { id: p.id, name: p.name, channels: p.channels, rate_limit_per_min: p.rateLimitPerMin, from_email: p.fromEmail, from_name: p.fromName, settings: p.settings, created_at: p.createdAt.toISOString() };
}

/** Projects: list_projects, update_project (sender, channels, rate; keys are never touched). */
@Injectable()
export class ProjectsTools implements OnModuleInit {
  constructor(
    private readonly registry: McpToolRegistry,
    private readonly projects: ProjectsService,
  ) {}

  onModuleInit(): void {
    this.registry.register(
      defineTool({
        name: 'list_projects',
        title: 'List projects',
        description: 'Every project on this instance with its channels, sender (from_email, from_name), API rate limit and settings. Project ids are what the other tools take as project_id.',
        annotations: READ_ONLY,
        audience: 'operator',
        input: z.strictObject({}),
        output: z.object({ projects: z.array(projectView) }),
        run: async () => {
          const projects = (await this.projects.list()).map(present);
          return { structured: { projects }, text: projects.length ? projects.map((p) => `${p.id} (${p.name}): ${p.channels.join(', ')}; sender ${p.from_email ?? 'instance default'}`).join('\n') : 'No projects yet.' };
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
          name: z.string().min(1).max(200).optional(),
          channels: z.array(channelArg).optional(),
          from_email: z.string().max(320).nullable().optional(),
          from_name: z.string().max(200).nullable().optional(),
          rate_limit_per_min: z.number().int().min(1).max(10_000_000).optional(),
          settings: z.record(z.string(), z.unknown()).optional().describe('Merged into the current settings (top-level keys replace)'),
        }),
        output: projectView,
        run: async ({ id, ...changes }, context) => {
          const project = present(await this.projects.update(id, await validateDto(UpdateProjectDto, changes), context.actor));
          return { structured: project, text: `Project ${project.id} updated: ${Object.keys(changes).join(', ') || 'nothing changed'}.` };
        },
      }),
    );
  }
}
