import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { VERSION } from '../../common/version.js';
import { type McpToolRegistry, needsAdminKey } from '../mcp-tool-registry.js';
import type { McpCaller, McpTool } from '../mcp-tool.js';
import type { McpCallService } from './mcp-call.service.js';
import { MCP_INSTRUCTIONS } from './mcp-instructions.js';

const listings = new WeakMap<McpTool, Tool>();
const readOnlyListings = new WeakMap<McpTool, Tool>();

/** Said first in the description of a tool the read-only key may see but not run. */
export const ADMIN_ONLY_NOTE =
  'Needs the admin key (ADMIN_API_KEY): this read-only key may read these parameters and recommend the call, not make it.';

/**
 * The tools/list entry of a tool: JSON Schemas derived from its zod schemas, computed once.
 * Every listing carries `requiresAdminKey` (an annotation, and `_meta["notifyd/requires_admin_key"]`
 * for clients that drop annotation fields they do not know); for the read-only key, a tool it
 * may not run says so at the start of its description as well.
 */
export function toolListing(tool: McpTool, caller?: McpCaller): Tool {
  const adminOnly = needsAdminKey(tool);
  const forReader = caller?.role === 'readonly' && adminOnly;
  const cache = forReader ? readOnlyListings : listings;
  let listing = cache.get(tool);
  if (!listing) {
    listing = {
      name: tool.name,
      title: tool.title,
      description: forReader ? `${ADMIN_ONLY_NOTE} ${tool.description}` : tool.description,
      inputSchema: jsonSchema(tool.input, 'input') as Tool['inputSchema'],
      outputSchema: jsonSchema(tool.output, 'output') as Tool['outputSchema'],
      annotations: { title: tool.title, ...tool.annotations, requiresAdminKey: adminOnly } as Tool['annotations'],
      _meta: { 'notifyd/requires_admin_key': adminOnly },
    };
    cache.set(tool, listing);
  }
  return listing;
}

function jsonSchema(schema: z.ZodObject, io: 'input' | 'output'): Record<string, unknown> {
  // Draft-07 keywords: every MCP client's validator (the SDK's Ajv among them) reads them.
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, target: 'draft-7' }) as Record<string, unknown>;
  return rest;
}

/**
 * tools/call with its params left to the SDK's Server, which checks them with
 * CallToolRequestSchema and answers a bad one as -32602 Invalid params. Registered with
 * CallToolRequestSchema itself, the same check ran first in the protocol layer, whose failure
 * answers -32603 Internal error: a client's mistake reported as the server's.
 */
const LOOSE_CALL_TOOL_REQUEST = CallToolRequestSchema.extend({ params: z.unknown().optional() });

/**
 * One MCP server for one caller. Stateless: HTTP builds one per request, stdio one per
 * process; the tools come from the shared registry, filtered by what the caller's key allows.
 */
export function createMcpServer(registry: McpToolRegistry, calls: McpCallService, caller: McpCaller): Server {
  const server = new Server(
    { name: 'notifyd', title: 'notifyd', version: VERSION },
    { capabilities: { tools: { listChanged: false } }, instructions: MCP_INSTRUCTIONS },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: registry.visibleTo(caller).map((tool) => toolListing(tool, caller)),
  }));
  server.setRequestHandler(LOOSE_CALL_TOOL_REQUEST, async (request) => {
    // Checked by then: the SDK's Server parses every tools/call with CallToolRequestSchema first.
    const { params } = request as z.infer<typeof CallToolRequestSchema>;
    return calls.call(params.name, params.arguments, caller);
  });
  return server;
}
