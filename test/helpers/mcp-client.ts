import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/**
 * The MCP SDK's own client, connected to a notifyd's POST /mcp with a key (and extra headers,
 * e.g. Origin). It lists the tools once, so that from then on the client checks every
 * structuredContent against the tool's outputSchema, as real clients do.
 */
export async function connectMcp(
  baseUrl: string,
  key: string | undefined,
  headers: Record<string, string> = {},
): Promise<Client> {
  const client = new Client({ name: 'notifyd-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), {
    requestInit: { headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...headers } },
  });
  await client.connect(transport);
  await client.listTools();
  return client;
}

/** The first text content of a tool result. */
export const resultText = (result: unknown): string => ((result as CallToolResult).content[0] as { text: string }).text;

/** The structured content of a tool result. */
export const structured = <T = Record<string, any>>(result: unknown): T =>
  (result as CallToolResult).structuredContent as T;
