import type { StartNotifyd } from './start.js';
import type { LoggerService } from '@nestjs/common';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { McpToolRegistry } from '../mcp/mcp-tool-registry.js';
import { McpCallService } from '../mcp/server/mcp-call.service.js';
import { createMcpServer } from '../mcp/server/mcp-server.factory.js';
import { parseArgs } from './args.js';
import { proxyMcp } from './mcp-proxy.js';

export const MCP_HELP = `notifyd mcp: the MCP server over stdio (for Claude Desktop, Cursor, any stdio MCP client)

Usage: notifyd mcp [--read-only] [--url URL] [--key KEY]

Without --url (or NOTIFYD_URL): connects to the database itself (DATABASE_URL, as \`serve\`)
and serves every tool as the admin key would; --read-only serves only the read-only tools.
It runs no worker and listens on no port.
With --url or NOTIFYD_URL: relays stdio to that instance's POST /mcp with --key or
NOTIFYD_ADMIN_API_KEY (the read-only or a project key work too, with their limits).
`;

/** Logs go to stderr: stdout carries the protocol and nothing else. */
function stderrLogger(verbose: boolean): LoggerService {
  const write = (level: string) => (message: unknown, context?: unknown) =>
    process.stderr.write(
      `${JSON.stringify({ level, context: typeof context === 'string' ? context : undefined, message: String(message) })}\n`,
    );
  return { log: verbose ? write('info') : () => undefined, warn: write('warn'), error: write('error') };
}

export async function mcp(argv: string[], startNotifyd: StartNotifyd): Promise<number> {
  const args = parseArgs(argv, { boolean: ['read-only', 'help'], string: ['url', 'key'] });
  if (args.flags.help) {
    process.stdout.write(MCP_HELP);
    return 0;
  }
  const url = (args.flags.url as string | undefined) ?? process.env.NOTIFYD_URL;
  if (url) {
    const key =
      (args.flags.key as string | undefined) ?? process.env.NOTIFYD_ADMIN_API_KEY ?? process.env.ADMIN_API_KEY;
    return proxyMcp(url, key);
  }

  // Role api: no worker, no scheduled work; listen false: no HTTP port.
  const notifyd = await startNotifyd({
    env: { ...process.env, NOTIFYD_ROLE: 'api' },
    listen: false,
    logger: stderrLogger(process.env.LOG_LEVEL === 'debug'),
  });
  const role = args.flags['read-only'] ? 'readonly' : 'admin';
  const server = createMcpServer(notifyd.app.get(McpToolRegistry), notifyd.app.get(McpCallService), {
    role,
    projectId: null,
    transport: 'stdio',
  });
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = resolve;
    process.stdin.once('end', resolve);
    process.once('SIGTERM', resolve);
    process.once('SIGINT', resolve);
  });
  await server.connect(transport);
  process.stderr.write(`notifyd mcp: serving ${role === 'admin' ? 'all' : 'the read-only'} tools on stdio\n`);
  await closed;
  await server.close().catch(() => undefined);
  await notifyd.close();
  return 0;
}
