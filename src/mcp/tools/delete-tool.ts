import { z } from 'zod';
import { defineTool, DESTRUCTIVE_WRITE, type McpTool, type McpToolContext } from '../mcp-tool.js';
import { deletedResult, projectIdArg } from './schemas.js';

/** What sets one delete tool apart: its words, the id it takes, and the deletion itself. */
interface Deletion {
  name: string;
  title: string;
  description: string;
  /** The id argument, bounded and described for what it names. */
  id: z.ZodType<string>;
  /** Deletes what the id names in the project the call acts on; answers the sentence an agent reads. */
  remove(id: string, projectId: string | undefined, context: McpToolContext): Promise<string>;
}

/**
 * A project tool that deletes one thing by id: destructive (calling it again deletes nothing
 * more), it answers `{ id, deleted: true }` and the sentence `remove` returns.
 */
export function deleteTool({ id: idArg, remove, ...words }: Deletion): McpTool {
  return defineTool({
    ...words,
    annotations: DESTRUCTIVE_WRITE,
    audience: 'project',
    input: z.strictObject({ project_id: projectIdArg.optional(), id: idArg }),
    output: deletedResult,
    run: async ({ project_id: projectId, id }, context) => ({
      structured: { id, deleted: true },
      text: await remove(id, projectId, context),
    }),
  });
}
