import { IsInt, IsString, Matches, Max, MaxLength, Min, MinLength, type ValidationOptions } from 'class-validator';
import { DocumentConstraints } from './openapi-constraints.js';
import { stacked } from './stacked.js';

export interface TextBounds {
  /** Fewest characters (MinLength). */
  min?: number;
  /** Most characters (MaxLength). */
  max?: number;
  /** A regular expression the whole value must match (Matches); `message` is its message. */
  pattern?: RegExp;
  message?: string;
}

/**
 * A string field with optional length bounds and pattern: IsString, MinLength, MaxLength and
 * Matches, with class-validator's messages, and the same bounds in the OpenAPI schema.
 */
export function IsText({ min, max, pattern, message }: TextBounds = {}): PropertyDecorator {
  return stacked(
    IsString(),
    ...(min === undefined ? [] : [MinLength(min)]),
    ...(max === undefined ? [] : [MaxLength(max)]),
    ...(pattern === undefined ? [] : [Matches(pattern, { message })]),
    DocumentConstraints({ minLength: min, maxLength: max, pattern: pattern?.source }),
  );
}

export interface WholeNumberBounds {
  min?: number;
  max?: number;
  /** One message for every rule (whole number, minimum, maximum); class-validator's own when unset. */
  message?: string;
}

/**
 * An integer field with optional bounds: IsInt, Min and Max, and the same bounds in the OpenAPI
 * schema. A query parameter also needs `@Type(() => Number)` (it arrives as a string).
 */
export function IsWholeNumber({ min, max, message }: WholeNumberBounds = {}): PropertyDecorator {
  const options: ValidationOptions | undefined = message === undefined ? undefined : { message };
  return stacked(
    IsInt(options),
    ...(min === undefined ? [] : [Min(min, options)]),
    ...(max === undefined ? [] : [Max(max, options)]),
    DocumentConstraints({ minimum: min, maximum: max }),
  );
}
