import type { Type } from '@nestjs/common';
import { createValidationPipe } from '../../common/validation/validation.pipe.js';

/**
 * Runs the REST route's own DTO validation on a tool's arguments, so a tool accepts exactly
 * what the route accepts (a failure is ApiError 422 naming each field, reported as isError).
 */
export async function validateDto<T extends object>(metatype: Type<T>, value: Record<string, unknown>): Promise<T> {
  return (await createValidationPipe().transform(value, { type: 'body', metatype })) as T;
}
