import { ValidationPipe, type ValidationError } from '@nestjs/common';
import { ApiError } from '../errors/api-error.js';

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
        if (message.startsWith(`${error.property}[`)) {
          // A validator that names the element itself (e.g. `subscribers[2] must be a string`).
          lines.push(`${path}${message.slice(error.property.length)}`);
        } else {
          const text = message.startsWith(`${error.property} `) ? message.slice(error.property.length + 1) : message;
          lines.push(`${path} ${text}`);
        }
      }
    }
    if (error.children?.length) lines.push(...describeValidationErrors(error.children, path));
  }
  return lines;
}

/**
 * Strict input: unknown fields are rejected (mass-assignment defence), types are checked, and
 * every problem is reported at once as 422 validation_failed with one line per field.
 */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    transform: true,
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => {
      const details = describeValidationErrors(errors);
      return ApiError.unprocessable('validation_failed', details.join('; ') || 'The request is not valid.', { details });
    },
  });
}
