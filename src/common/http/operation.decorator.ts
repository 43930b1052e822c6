import { applyDecorators, Delete, Get, HttpCode, Patch, Post, Put } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { ApiErrors } from './api-errors.decorator.js';

const VERBS = { GET: Get, POST: Post, PUT: Put, PATCH: Patch, DELETE: Delete };
type Verb = keyof typeof VERBS;

/** A handler's verb and its path below the controller's: `'GET'`, `'POST /:id/retry'`. */
export type Route = Verb | `${Verb} /${string}`;

/** What a route's OpenAPI operation says besides its id, and its status when not the default. */
export interface OperationDocs {
  summary: string;
  description?: string;
  status?: number;
}

/**
 * A handler's route and OpenAPI operation in one decorator: verb and path, the error statuses it
 * documents (the shared ErrorDto examples, @ApiErrors) and a summary, or `{ summary,
 * description, status }` when it needs more. The operation id is the handler's name, so ids are
 * unique and read like the code. A POST answers 200, as this API's POSTs always have (Nest's
 * default is 201); one that answers 201 says `status: 201`.
 */
export function Operation(route: Route, errors: number[], docs: string | OperationDocs): MethodDecorator {
  const [verb, path] = route.split(' /') as [Verb, string | undefined];
  const { status, ...text } = typeof docs === 'string' ? { summary: docs } : docs;
  const code = status ?? (verb === 'POST' ? 200 : undefined);
  return (target, key, descriptor) =>
    applyDecorators(
      VERBS[verb](path),
      ...(code === undefined ? [] : [HttpCode(code)]),
      ApiOperation({ operationId: String(key), ...text }),
      ApiErrors(...errors),
    )(target, key, descriptor);
}
