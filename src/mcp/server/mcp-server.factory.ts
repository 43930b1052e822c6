import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { VERSION } from '../../common/version.js';
import type { McpToolRegistry } from '../mcp-tool-registry.js';
import type { McpCaller, McpTool } from '../mcp-tool.js';
import type { McpCallService } from './mcp-call.service.js';
import { MCP_INSTRUCTIONS } from './mcp-instructions.js';

const listings = new WeakMap<McpTool, Tool>();

/** The tools/list entry of a tool: JSON Schemas derived from its zod schemas, computed once. */
export function toolListing(tool: McpTool): Tool {
  let listing = listings.get(tool);
  if (!listing) {
    listing = {
      name: tool.name,
      title: tool.title,
      description: tool.description,
      inputSchema: jsonSchema(tool.input, 'input') as Tool['inputSchema'],
      outputSchema: jsonSchema(tool.output, 'output') as Tool['outputSchema'],
      annotations: { title: tool.title, ...tool.annotations },
    };
    listings.set(tool, listing);
  }
  return listing;
}

function jsonSchema(schema: z.ZodObject, io: 'input' | 'output'): Record<string, unknown> {
  // Draft-07 keywords: every MCP client's validator (the SDK's Ajv among them) reads them.
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, target: 'draft-7' }) as Record<string, unknown>;
  return rest;
}

/**
 * One MCP server for one caller. Stateless: HTTP builds one per request, stdio one per
 * process; the tools come from the shared registry, filtered by what the caller's key allows.
 */
export function createMcpServer(registry: McpToolRegistry, calls: McpCallService, caller: McpCaller): Server {
  const server = new Server({ name: 'notifyd', title: 'notifyd', version: VERSION }, { capabilities: { tools: { listChanged: false } }, instructions: MCP_INSTRUCTIONS });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: registry.visibleTo(caller).map(toolListing) }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => calls.call(request.params.name, request.params.arguments, caller));
  return server;
}
