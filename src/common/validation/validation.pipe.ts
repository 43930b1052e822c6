import { type ArgumentMetadata, ValidationPipe, type ValidationError } from '@nestjs/common';
import { validateSync, type ValidatorOptions } from 'class-validator';
import { ApiError } from '../errors/api-error.js';
import { requestValueProblem } from './request-value.js';

/** Flattens class-validator's tree into "path message" lines, e.g. `tags[0].name must be a string`. */
export function describeValidationErrors(errors: ValidationError[], parent = ''): string[] {
  const lines: string[] = [];
  for (const error of errors) {
    const path = /^\d+$/.test(error.property)
      ? `${parent}[${error.property}]`
      : parent
        ? `${parent}.${error.property}`
        : error.property;
    for (const [rule, message] of Object.entries(error.constraints ?? {})) {
      if (rule === 'whitelistValidation') {
        lines.push(`${path} is not a field this route accepts; remove it (the fields are listed at /docs)`);
      } else {
        lines.push(`${path}${afterProperty(error.property, message)}`);
      }
    }
    if (error.children?.length) lines.push(...describeValidationErrors(error.children, path));
  }
  return lines;
}

/**
 * A message without its leading property name, ready to follow the full path: "name must be a
 * string" → " must be a string"; "subscribers[2] must be …" (a validator naming the element)
 * → "[2] must be …"; a message that does not start with the name gets a space before it.
 */
function afterProperty(property: string, message: string): string {
  const rest = message.startsWith(property) ? message.slice(property.length) : '';
  return rest.startsWith(' ') || rest.startsWith('[') ? rest : ` ${message}`;
}

/**
 * Strict input: unknown fields are rejected (mass-assignment defence), types are checked, and
 * every problem is reported at once as 422 validation_failed with one line per field.
 */
export function createValidationPipe(): ValidationPipe {
  return new StrictValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    transform: true,
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => {
      const details = describeValidationErrors(errors);
      return ApiError.unprocessable('validation_failed', details.join('; ') || 'The request is not valid.', {
        details,
      });
    },
  });
}

/**
 * ValidationPipe that first refuses a NUL character anywhere in a body, query or path value
 * (PostgreSQL cannot store one: it would be a 500 further down), and a value nested past
 * MAX_NESTING_DEPTH (class-transformer would overflow the stack: a 500), naming the field.
 */
class StrictValidationPipe extends ValidationPipe {
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type !== 'custom') {
      const problem = requestValueProblem(value, metadata.type === 'param' ? metadata.data : undefined);
      if (problem !== undefined) throw ApiError.unprocessable('validation_failed', problem, { details: [problem] });
    }
    return super.transform(value, metadata);
  }

  /**
   * Synchronous validation: notifyd has no async validator, and class-validator's async path
   * makes a promise per constraint (a send's DTO has dozens): measurable CPU on every request.
   */
  protected override validate(object: object, validatorOptions?: ValidatorOptions): ValidationError[] {
    return validateSync(object, validatorOptions);
  }
}
