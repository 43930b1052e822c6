import { applyDecorators } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import { ErrorDto } from './error.dto.js';

const EXAMPLES: Record<number, { description: string; error: string; message: string }> = {
  400: {
    description: 'Malformed request',
    error: 'invalid_json',
    message: 'The request body is not valid JSON. Check quotes, commas and brackets.',
  },
  401: {
    description: 'Missing or invalid key',
    error: 'unauthorized',
    message: 'Missing API key: send it as X-Api-Key or Authorization: Bearer.',
  },
  403: {
    description: 'The key may not do this',
    error: 'forbidden',
    message: 'Read-only key: this action needs the admin key (ADMIN_API_KEY).',
  },
  404: {
    description: 'Not found (or owned by another project)',
    error: 'not_found',
    message: "Job '3f2b…' was not found",
  },
  409: {
    description: 'Conflicts with the current state',
    error: 'conflict',
    message: 'Job is sent; only failed or cancelled jobs can be retried.',
  },
  413: {
    description: 'Body larger than BODY_LIMIT_BYTES',
    error: 'payload_too_large',
    message:
      'The request body is larger than this instance accepts (BODY_LIMIT_BYTES). Split it into smaller requests.',
  },
  415: {
    description: 'Body is not JSON',
    error: 'unsupported_media_type',
    message: 'Send the body as JSON with the header Content-Type: application/json.',
  },
  422: {
    description: 'Invalid fields',
    error: 'validation_failed',
    message:
      'channels[0] must be one of the following values: email, sms, whatsapp, push, in_app, telegram, slack, discord',
  },
  429: {
    description: 'Over the project’s rate_limit_per_min (Retry-After says when to retry)',
    error: 'rate_limited',
    message: "Project 'acme' allows 600 API requests per minute (rate_limit_per_min); retry in 12 s.",
  },
  503: { description: 'Unavailable', error: 'unavailable', message: 'The database is unreachable.' },
};

/** Documents the error responses of a route with the shared ErrorDto schema and an example. */
export function ApiErrors(...statuses: number[]) {
  return applyDecorators(
    ...statuses.map((status) => {
      const example = EXAMPLES[status] ?? {
        description: 'Error',
        error: 'error',
        message: 'Something is wrong with the request.',
      };
      return ApiResponse({
        status,
        description: example.description,
        type: ErrorDto,
        example: { error: example.error, message: example.message },
      });
    }),
  );
}
