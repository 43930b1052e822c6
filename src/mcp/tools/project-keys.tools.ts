import { Injectable } from '@nestjs/common';
import { z } from 'zod';
import { ProjectsService } from '../../projects/projects.service.js';
import { defineTool, DESTRUCTIVE_WRITE, ROTATES_CREDENTIAL } from '../mcp-tool.js';
import type { McpToolProvider } from '../mcp-tool-registry.js';
import { projectIdArg, revokedResult } from './schemas.js';

/**
 * A project's API keys (POST /v1/admin/projects/:id/rotate-key and …/revoke-secondary), through
 * the same ProjectsService calls: rotate_project_key, revoke_secondary_key. Operator tools, so
 * only the admin key runs them (they change state), as only the admin key calls the routes.
 */
@Injectable()
export class ProjectKeysTools implements McpToolProvider {
  constructor(private readonly projects: ProjectsService) {}

  tools() {
    return [
      defineTool({
        name: 'rotate_project_key',
        title: 'Rotate a project’s API key',
        description:
          'Issue a new API key for a project, shown once in this result as POST /v1/admin/projects/:id/rotate-key shows it: store it now and deploy it where the project calls notifyd. ' +
          'The previous key stays valid as the secondary key until revoke_secondary_key, so nothing breaks while the new one rolls out. ' +
          'Each call issues another key, and a second rotation ends the key that was secondary.',
        annotations: ROTATES_CREDENTIAL,
        audience: 'operator',
        input: z.strictObject({ id: projectIdArg.describe('Project id (see list_projects)') }),
        output: z.object({ id: z.string(), new_api_key: z.string().describe('Shown once'), note: z.string() }),
        run: async ({ id }, context) => {
          const key = await this.projects.rotateKey(id, context.actor);
          const note = `The previous key stays valid until revoke_secondary_key (POST /v1/admin/projects/${id}/revoke-secondary).`;
          return {
            structured: { id, new_api_key: key, note },
            text: `Project ${id} has a new API key, shown this once (store it now): ${key}\n${note}`,
          };
        },
      }),
      defineTool({
        name: 'revoke_secondary_key',
        title: 'Revoke a project’s previous key',
        description:
          'End the secondary key a rotation left valid (the project’s previous key): calls made with it are refused (401) from now on. ' +
          'Run it once every caller uses the new key. Revoking when there is no secondary key changes nothing.',
        annotations: DESTRUCTIVE_WRITE,
        audience: 'operator',
        input: z.strictObject({ id: projectIdArg.describe('Project id (see list_projects)') }),
        output: revokedResult,
        run: async ({ id }, context) => {
          await this.projects.revokeSecondary(id, context.actor);
          return {
            structured: { id, revoked: true },
            text: `Project ${id}: the secondary (previous) key is revoked; only the current key works.`,
          };
        },
      }),
    ];
  }
}
