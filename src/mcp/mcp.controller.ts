import { Controller, Delete, Get, HttpCode, Logger, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { McpToolRegistry } from './mcp-tool-registry.js';
import { McpAuthService } from './server/mcp-auth.service.js';
import { McpCallService } from './server/mcp-call.service.js';
import { createMcpServer } from './server/mcp-server.factory.js';

/**
 * MCP over Streamable HTTP, stateless: every POST carries one JSON-RPC message (or a batch, each
 * message spending the caller's budget) and gets a JSON answer; no session, no server-initiated
 * stream (so GET and DELETE answer 405). Documented in
 * docs/MCP.md rather than the OpenAPI document, since its body is JSON-RPC.
 */
@ApiExcludeController()
@Controller('mcp')
export class McpController {
  private readonly logger = new Logger('Mcp');

  constructor(
    private readonly auth: McpAuthService,
    private readonly registry: McpToolRegistry,
    private readonly calls: McpCallService,
  ) {}

  @Post()
  async post(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const caller = await this.auth.authenticate(request, reply);
    // From here the SDK writes the response on the raw socket.
    reply.hijack();
    reply.raw.setHeader('x-request-id', request.id);
    const server = createMcpServer(this.registry, this.calls, caller);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    reply.raw.on('close', () => {
      void transport.close();
      void server.close();
    });
    try {
      await server.connect(transport);
      await transport.handleRequest(request.raw, reply.raw, request.body);
    } catch (err) {
      // The reply is ours now, so Nest's exception filter cannot answer: answer here, and log.
      this.logger.error(`MCP request failed: ${(err as Error)?.stack ?? String(err)}`);
      if (!reply.raw.headersSent) {
        reply.raw.writeHead(500, { 'content-type': 'application/json' });
        reply.raw.end(
          JSON.stringify({
            jsonrpc: '2.0',
            id: null,
            error: { code: -32603, message: 'Internal error; the server log has the details.' },
          }),
        );
      }
    }
  }

  // One handler per method: a handler's route method is one metadata value, so a second
  // method decorator on it overwrote the first (DELETE /mcp answered 404). The MCP transport
  // spec lets a server without a server-sent stream answer GET with 405, and one without
  // sessions DELETE.
  @Get()
  @HttpCode(405)
  getNotAllowed(@Res({ passthrough: true }) reply: FastifyReply) {
    return methodNotAllowed(reply);
  }

  @Delete()
  @HttpCode(405)
  deleteNotAllowed(@Res({ passthrough: true }) reply: FastifyReply) {
    return methodNotAllowed(reply);
  }
}

/** The 405 answer of GET and DELETE /mcp, with the Allow header RFC 9110 requires. */
function methodNotAllowed(reply: FastifyReply) {
  void reply.header('allow', 'POST');
  return {
    error: 'method_not_allowed',
    message:
      'This MCP endpoint is stateless: send each JSON-RPC message with POST /mcp (no sessions, no server-sent stream).',
  };
}
