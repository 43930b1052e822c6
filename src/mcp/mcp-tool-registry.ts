import { Injectable } from '@nestjs/common';
import type { McpToolDefinition } from './mcp-tool.js';

/** The tools an MCP client may list and call; read-only keys see only read-only ones. */
@Injectable()
export class McpToolRegistry {
  private readonly tools: McpToolDefinition[] = [];

  register(tool: McpToolDefinition): void {
    if (this.tools.some((t) => t.name === tool.name)) throw new Error(`MCP tool ${tool.name} registered twice`);
    this.tools.push(tool);
  }

  list(readOnly: boolean): McpToolDefinition[] {
    return this.tools.filter((t) => !readOnly || t.annotations.readOnlyHint);
  }
}
