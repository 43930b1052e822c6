import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, ValidateNested } from 'class-validator';
import { DocumentConstraints } from './openapi-constraints.js';
import { stacked } from './stacked.js';

export interface ListBounds {
  /** Fewest items (ArrayMinSize). */
  min?: number;
  /** Most items (ArrayMaxSize). */
  max?: number;
}

/**
 * An array of nested DTOs, each checked as `item` (IsArray, ArrayMinSize, ArrayMaxSize,
 * ValidateNested each, Type), with the same item bounds in the OpenAPI schema.
 */
export function IsListOf(item: () => new () => object, { min, max }: ListBounds = {}): PropertyDecorator {
  return stacked(
    IsArray(),
    ...(min === undefined ? [] : [ArrayMinSize(min)]),
    ...(max === undefined ? [] : [ArrayMaxSize(max)]),
    ValidateNested({ each: true }),
    Type(item),
    DocumentConstraints({ minItems: min, maxItems: max }),
  );
}
