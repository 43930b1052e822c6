import { Inject, Injectable } from '@nestjs/common';
import type { McpCaller, McpTool } from './mcp-tool.js';

/** One area's tools (`tools/*.tools.ts`): an injectable that lists them, built on its services. */
export interface McpToolProvider {
  tools(): McpTool[];
}

/** Injection token for every tool provider of McpModule (the module lists them). */
export const MCP_TOOL_PROVIDERS = Symbol('MCP_TOOL_PROVIDERS');

/**
 * Every MCP tool, collected from the tool providers when the registry is built. Both
 * transports read it, so HTTP and stdio serve the same tools.
 */
@Injectable()
export class McpToolRegistry {
  private readonly tools = new Map<string, McpTool>();

  constructor(@Inject(MCP_TOOL_PROVIDERS) providers: McpToolProvider[]) {
    for (const tool of providers.flatMap((provider) => provider.tools())) {
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
