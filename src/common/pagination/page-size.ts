import { Type } from 'class-transformer';
import { IsOptional } from 'class-validator';
import { IsWholeNumber } from '../validation/bounded.js';
import { stacked } from '../validation/stacked.js';

/**
 * The `limit` query parameter of a list whose bound is not PageLimitQueryDto's 1–200: optional
 * (each service applies its own default), a whole number from 1 to `max`, with the bounds in the
 * OpenAPI document. `message`, when given, replaces class-validator's for every rule.
 */
export function IsPageSize(max: number, message?: string): PropertyDecorator {
  return stacked(
    IsOptional(),
    Type(() => Number),
    IsWholeNumber({ min: 1, max, message }),
  );
}
