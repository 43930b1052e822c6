/**
 * An operator action exposed to agents. The MCP issue registers the tools and serves them
 * over Streamable HTTP (`POST /mcp`) and stdio (`notifyd mcp`).
 */
export interface McpToolDefinition {
  name: string;
  description: string;
  annotations: { readOnlyHint: boolean; destructiveHint: boolean; idempotentHint: boolean; openWorldHint: boolean };
}
