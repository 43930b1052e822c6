import type { ApiPropertyOptions } from '@nestjs/swagger';

/** OpenAPI schema of a segment (notifyd's filter language), for request bodies and fields. */
export const SEGMENT_SCHEMA: NonNullable<ApiPropertyOptions['oneOf']>[number] = {
  type: 'object',
  description:
    'Subscribers matching every condition; {} is everyone. Fields: id, email, phone, first_name, last_name, locale, timezone, created_at, data.<key>[.<key>…]. ' +
    'Ops: eq, neq (includes missing), in, not_in (includes missing), exists (true/false), contains (case-insensitive), gt, gte, lt, lte (numbers; RFC 3339 for created_at).',
  properties: {
    locale: { oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }], example: ['fr', 'fr-CA'] },
    timezone: { oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }], example: 'Europe/Paris' },
    has_email: { type: 'boolean', example: true },
    has_phone: { type: 'boolean' },
    created_after: { type: 'string', format: 'date-time' },
    created_before: { type: 'string', format: 'date-time' },
    data: { type: 'object', additionalProperties: true, example: { plan: ['pro', 'team'] } },
    where: {
      type: 'array',
      items: {
        type: 'object',
        required: ['field', 'op'],
        properties: {
          field: { type: 'string', example: 'data.orders' },
          op: {
            type: 'string',
            enum: ['eq', 'neq', 'in', 'not_in', 'exists', 'contains', 'gt', 'gte', 'lt', 'lte'],
            example: 'gte',
          },
          value: { example: 3 },
        },
      },
    },
  },
  example: { locale: 'fr', has_email: true, where: [{ field: 'data.orders', op: 'gte', value: 3 }] },
};

export class SegmentPreviewDto {
  /**
   * Subscribers of the project that match.
   * @example 1284
   */
  count: number;
  /**
   * Up to ten matching subscriber ids, oldest first.
   * @example ["user_1", "user_7"]
   */
  sample: string[];
}
