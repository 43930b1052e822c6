import type { ProjectRow } from '../../projects/project.types.js';
import type { ProjectsService } from '../../projects/projects.service.js';
import type { McpToolContext } from '../mcp-tool.js';

/**
 * The project a project-scoped tool acts on, as its REST route would: a project key's own
 * (naming another is an error), or the one an operator names, which must exist (404 naming
 * it), so that a write never lands on a project id that is not there.
 */
export function scopedProject(
  projects: ProjectsService,
  context: McpToolContext,
  requested: string | undefined,
): Promise<ProjectRow> {
  return projects.get(context.project(requested, true));
}
