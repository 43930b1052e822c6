import { applyDecorators } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { ApiErrors } from './api-errors.decorator.js';

/** What a route's OpenAPI operation says besides its id: a one-line summary, and more when it needs it. */
export interface OperationDocs {
  summary: string;
  description?: string;
}

/**
 * A route's OpenAPI operation and the error responses it documents: every handler carries both,
 * so they are one decorator. `errors` are statuses of the shared ErrorDto examples (@ApiErrors).
 */
export function Operation(operationId: string, errors: number[], docs: OperationDocs) {
  return applyDecorators(ApiOperation({ operationId, ...docs }), ApiErrors(...errors));
}
