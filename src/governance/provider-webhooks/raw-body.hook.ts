import { Readable } from 'node:stream';
import { HttpStatus } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../../common/errors/api-error.js';
import { bodyLimitConfig, routeBodyLimit } from '../../common/http/body-limit.js';

const RAW_BODY_ROUTE = 'notifydRawBody';

/** The body of a provider webhook exactly as received, and the content type it came with. */
export interface RawWebhookBody {
  raw: Buffer;
  contentType: string | undefined;
}

const bodies = new WeakMap<FastifyRequest['raw'], RawWebhookBody>();

/**
 * The cap of a public page's form post (the preference center, the unsubscribe POST): a few
 * hundred bytes of checkbox names, or RFC 8058's `List-Unsubscribe=One-Click`. These routes take
 * no key and read the body before their signed token is checked, so not BODY_LIMIT_BYTES.
 */
export const PUBLIC_FORM_MAX_BYTES = 64 * 1024;

/**
 * Marks a route whose handler verifies a signature over the raw body before parsing it;
 * `limitBytes` caps its body below BODY_LIMIT_BYTES (a public form has no use for megabytes).
 */
export const RawBody = (limitBytes?: number) =>
  RouteConfig({ [RAW_BODY_ROUTE]: true, ...(limitBytes ? bodyLimitConfig(limitBytes) : {}) });

/** The raw body the hook kept for this request (an empty buffer when there was none). */
export function rawBodyOf(request: FastifyRequest): RawWebhookBody {
  return bodies.get(request.raw) ?? { raw: Buffer.alloc(0), contentType: request.headers['content-type'] };
}

/**
 * Provider signatures cover the exact bytes sent; a body parsed and re-serialised no longer
 * matches, and parsing before verifying hands unauthenticated input to a parser. So for routes
 * marked @RawBody() (and only those) this preParsing hook reads the body into a buffer, keeps
 * it for the handler, and leaves Fastify nothing to parse: the content-type header is moved
 * aside, which also lets SNS's `text/plain` JSON through without a global text parser. The
 * handler verifies the bytes, then parses them itself. Other routes are untouched.
 */
export function keepRawBodyOnMarkedRoutes(fastify: FastifyInstance, limitBytes: number): void {
  fastify.addHook('preParsing', async (request, _reply, payload) => {
    const config = request.routeOptions.config as unknown as Record<string, unknown> | undefined;
    if (!config?.[RAW_BODY_ROUTE]) return payload;
    const limit = routeBodyLimit(request) ?? limitBytes;
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of payload) {
      const buf = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
      size += buf.length;
      if (size > limit) {
        throw new ApiError(
          HttpStatus.PAYLOAD_TOO_LARGE,
          'payload_too_large',
          limit === limitBytes
            ? `The webhook body is larger than ${limitBytes} bytes (BODY_LIMIT_BYTES).`
            : `The body is larger than ${limit} bytes, the most this route accepts.`,
        );
      }
      chunks.push(buf);
    }
    const headers = request.raw.headers;
    bodies.set(request.raw, { raw: Buffer.concat(chunks), contentType: headers['content-type'] });
    delete headers['content-type'];
    delete headers['transfer-encoding'];
    headers['content-length'] = '0';
    return Readable.from([]);
  });
}
