import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { isJSONRPCRequest, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { mcpEndpoint } from './http-client.js';

/**
 * `notifyd mcp --url …`: relays each message between stdio and a running instance's POST /mcp,
 * for clients that only speak stdio. A request the instance cannot answer gets a JSON-RPC error
 * back, so the client never waits forever.
 */
export async function proxyMcp(url: string, key: string | undefined): Promise<number> {
  if (!key) {
    process.stderr.write(
      'notifyd mcp --url needs a key: set NOTIFYD_ADMIN_API_KEY (or pass --key) to the admin, read-only or a project key.\n',
    );
    return 64;
  }
  const local = new StdioServerTransport();
  const remote = new StreamableHTTPClientTransport(mcpEndpoint(url), {
    requestInit: { headers: { authorization: `Bearer ${key}` } },
  });
  const closed = new Promise<void>((resolve) => {
    local.onclose = resolve;
    process.stdin.once('end', resolve);
    process.once('SIGTERM', resolve);
    process.once('SIGINT', resolve);
  });
  const fail = (message: JSONRPCMessage, err: Error) => {
    process.stderr.write(`notifyd mcp: ${err.message}\n`);
    if (isJSONRPCRequest(message))
      void local.send({
        jsonrpc: '2.0',
        id: message.id,
        error: { code: -32603, message: `notifyd at ${url} did not answer: ${err.message}` },
      });
  };
  local.onmessage = (message) => void remote.send(message).catch((err: Error) => fail(message, err));
  remote.onmessage = (message) => void local.send(message);
  remote.onerror = (err) => process.stderr.write(`notifyd mcp: ${err.message}\n`);
  await remote.start();
  await local.start();
  await closed;
  await remote.close().catch(() => undefined);
  return 0;
}
