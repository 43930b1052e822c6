import { Injectable } from '@nestjs/common';
import type { McpCaller, McpTool } from './mcp-tool.js';

/**
 * Every MCP tool, registered by the tool providers at module init. Both transports read it,
 * so HTTP and stdio serve the same tools.
 */
@Injectable()
export class McpToolRegistry {
  private readonly tools = new Map<string, McpTool>();

  register(...tools: McpTool[]): void {
    for (const tool of tools) {
      if (this.tools.has(tool.name)) throw new Error(`MCP tool ${tool.name} registered twice`);
      this.tools.set(tool.name, tool);
    }
  }

  all(): McpTool[] {
    return [...this.tools.values()].sort((a, b) => a.name.localeCompare(b.name));
  }

  get(name: string): McpTool | undefined {
    return this.tools.get(name);
  }

  /**
   * The tools this caller may list. The read-only key sees every tool, so that an agent can
   * recommend the exact fix call with its parameters; those it may not run are marked in their
   * listing (toolListing) and refused when called. A project key sees the project tools only:
   * the others act on the whole instance, which it may never do.
   */
  visibleTo(caller: McpCaller): McpTool[] {
    return this.all().filter((tool) => caller.role !== 'project' || tool.audience === 'project');
  }
}

/** Whether only the admin key may run a tool: it changes state, or its REST route is admin-only. */
export function needsAdminKey(tool: McpTool): boolean {
  return !tool.annotations.readOnlyHint || tool.adminOnly === true;
}

/** Why a caller may not run a tool, as a sentence naming the key it needs; undefined if allowed. */
export function deniedReason(tool: McpTool, caller: McpCaller): string | undefined {
  if (caller.role === 'project' && tool.audience !== 'project') {
    return `${tool.name} acts on the whole instance; a project key cannot call it. Use the admin key (ADMIN_API_KEY)${needsAdminKey(tool) ? '' : ' or the read-only key (READONLY_API_KEY)'}.`;
  }
  if (caller.role === 'readonly' && needsAdminKey(tool)) {
    const why = tool.annotations.readOnlyHint ? 'reads what only the admin key may read' : 'changes state';
    return `${tool.name} ${why}; this key is read-only. Ask an operator with the admin key (ADMIN_API_KEY).`;
  }
  return undefined;
}
