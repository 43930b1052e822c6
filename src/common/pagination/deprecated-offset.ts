import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsOptional } from 'class-validator';
import { IsWholeNumber, type WholeNumberBounds } from '../validation/bounded.js';
import { stacked } from '../validation/stacked.js';

/**
 * The `offset` query parameter of a list that now pages by cursor, kept so that callers paging
 * by offset (notifyd 0.x's way) still work: optional, a whole number from 0 to `max`, and marked
 * deprecated in the OpenAPI document. `paging` says, after the advice to use `cursor`, what the
 * offset skips and what the answer then carries; the description is what clients see (OpenAPI,
 * llms.txt). Explicit ApiProperty: the swagger plugin reads doc comments, not `deprecated`.
 */
export function IsDeprecatedOffset(paging: string, bounds: Omit<WholeNumberBounds, 'min'>): PropertyDecorator {
  return stacked(
    ApiProperty({
      required: false,
      deprecated: true,
      example: 0,
      description: `Deprecated: page with \`cursor\` (the previous page's \`next_cursor\`) instead. ${paging}`,
    }),
    IsOptional(),
    Type(() => Number),
    IsWholeNumber({ min: 0, ...bounds }),
  );
}
