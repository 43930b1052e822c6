import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { routeBodyLimit } from '../http/body-limit.js';
import { ApiError } from './api-error.js';

/** Fastify's own errors (body parsing, limits) carry a code and a status. */
interface FastifyLikeError {
  code?: string;
  statusCode?: number;
  message?: string;
}

/** Fastify error codes → our error codes and a message that tells the caller what to do. */
const FASTIFY_ERRORS: Record<string, { error: string; message: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: {
    error: 'invalid_json',
    message: 'The request body is not valid JSON. Check quotes, commas and brackets.',
  },
  FST_ERR_CTP_EMPTY_JSON_BODY: {
    error: 'invalid_json',
    message: 'The request says Content-Type: application/json but its body is empty. Send a JSON object.',
  },
  FST_ERR_CTP_BODY_TOO_LARGE: {
    error: 'payload_too_large',
    message:
      'The request body is larger than this instance accepts (BODY_LIMIT_BYTES). Split it into smaller requests.',
  },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    error: 'unsupported_media_type',
    message: 'Send the body as JSON with the header Content-Type: application/json.',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    error: 'bad_request',
    message: 'The Content-Length header does not match the body.',
  },
};

/**
 * Every error leaves as `{"error": code, "message": …}`. Unknown errors are logged with their
 * stack and answered with a generic 500 that never leaks internals.
 */
@Catch()
export class HttpExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('HttpError');

  catch(exception: unknown, host: ArgumentsHost): void {
    const ctx = host.switchToHttp();
    const reply = ctx.getResponse<FastifyReply>();
    const request = ctx.getRequest<FastifyRequest>();
    const { status, body } = this.toResponse(exception, request);
    if (reply.sent || reply.raw.headersSent) return;
    void reply.status(status).header('content-type', 'application/json; charset=utf-8').send(body);
  }

  private toResponse(exception: unknown, request: FastifyRequest): { status: number; body: Record<string, unknown> } {
    if (exception instanceof ApiError) {
      return { status: exception.getStatus(), body: exception.getResponse() as Record<string, unknown> };
    }
    // Nest wraps Fastify's own 4xx errors (body parsing, limits) in an HttpException with the cause.
    const fastifyError = ((exception as { cause?: unknown })?.cause ?? exception) as FastifyLikeError;
    const known = fastifyError?.code ? FASTIFY_ERRORS[fastifyError.code] : undefined;
    if (known && fastifyError.statusCode) {
      const routeLimit = known.error === 'payload_too_large' ? routeBodyLimit(request) : undefined;
      const message =
        routeLimit !== undefined
          ? `The request body is larger than ${routeLimit} bytes, the most this route accepts.`
          : known.message;
      return { status: fastifyError.statusCode, body: { error: known.error, message } };
    }
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      const response = exception.getResponse();
      const message =
        typeof response === 'string'
          ? response
          : String((response as { message?: unknown }).message ?? exception.message);
      if (status === 404) {
        return {
          status,
          body: {
            error: 'not_found',
            message: `No route ${request.method} ${request.url.split('?')[0]}. See /docs for the API.`,
          },
        };
      }
      return { status, body: { error: httpCode(status), message } };
    }
    if (fastifyError?.statusCode && fastifyError.statusCode >= 400 && fastifyError.statusCode < 500) {
      return {
        status: fastifyError.statusCode,
        body: { error: httpCode(fastifyError.statusCode), message: fastifyError.message ?? 'Bad request' },
      };
    }
    this.logger.error(
      `unhandled error on ${request.method} ${request.url.split('?')[0]} (request ${request.id}): ${(exception as Error)?.stack ?? String(exception)}`,
    );
    return {
      status: 500,
      body: {
        error: 'internal_error',
        message: `Something went wrong on our side. Quote request id ${request.id} when reporting it.`,
      },
    };
  }
}

function httpCode(status: number): string {
  const codes: Record<number, string> = {
    400: 'bad_request',
    401: 'unauthorized',
    403: 'forbidden',
    404: 'not_found',
    405: 'method_not_allowed',
    409: 'conflict',
    413: 'payload_too_large',
    415: 'unsupported_media_type',
    422: 'validation_failed',
    429: 'rate_limited',
    503: 'unavailable',
  };
  return codes[status] ?? (status >= 500 ? 'internal_error' : 'bad_request');
}
