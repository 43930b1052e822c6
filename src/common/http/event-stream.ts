import type { ServerResponse } from 'node:http';
import type { FastifyReply } from 'fastify';

/**
 * Starts a server-sent event stream on a reply the caller has hijacked: the SSE headers (with
 * those already set on the reply, such as CORS), no caching or proxy buffering, and the `retry:`
 * line that tells EventSource how long to wait before reconnecting. Returns the raw response the
 * stream writes its frames to.
 */
export function startEventStream(reply: FastifyReply, retryMs: number): ServerResponse {
  const raw = reply.raw;
  raw.writeHead(200, {
    ...(reply.getHeaders() as Record<string, string>),
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-store, no-transform',
    'x-accel-buffering': 'no',
    connection: 'keep-alive',
  });
  raw.write(`retry: ${retryMs}\n\n`);
  return raw;
}
