import { ApiProperty } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray } from 'class-validator';
import { UpsertSubscriberDto } from './subscriber.dto.js';

/** The most subscribers one bulk call takes (and BODY_LIMIT_BYTES bounds the body as on every route). */
export const BULK_MAX_SUBSCRIBERS = 10_000;

export class BulkUpsertSubscribersDto {
  /**
   * 1 to 10 000 subscribers, each exactly what `POST /v1/subscribers` takes (absent fields are
   * kept, `null` clears one, `data` is merged). Each is checked on its own: the valid ones are
   * written even when others are refused. An id given twice is applied in order, as two calls
   * would be (the later fields win, `data` merged), and written once.
   */
  @ApiProperty({
    type: [UpsertSubscriberDto],
    maxItems: BULK_MAX_SUBSCRIBERS,
    example: [
      {
        id: 'user_1',
        email: 'jane@example.com',
        first_name: 'Jane',
        locale: 'fr-FR',
        timezone: 'Europe/Paris',
        data: { plan: 'pro' },
      },
      { id: 'user_2', phone: '+33612345678' },
    ],
  })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(BULK_MAX_SUBSCRIBERS, {
    message: `subscribers may hold at most ${BULK_MAX_SUBSCRIBERS} items per call; split the list into several calls (notifyd subscribers import does it for you)`,
  })
  subscribers: unknown[];
}

export class BulkSubscriberErrorDto {
  /**
   * Position of the refused item in `subscribers` (from 0).
   * @example 1
   */
  index: number;
  /**
   * The item's id when it has one that is text, else null.
   * @example "user_2"
   */
  id: string | null;
  /**
   * The field at fault, or null when the item as a whole is wrong (not an object).
   * @example "email"
   */
  field: string | null;
  /**
   * What is wrong and how to fix it: the sentence `POST /v1/subscribers` would answer.
   * @example "email must be an email address such as jane@example.com, or null to clear it"
   */
  message: string;
}

export class BulkUpsertSubscribersResponseDto {
  /**
   * Subscribers this call created.
   * @example 1
   */
  created: number;
  /**
   * Existing subscribers this call updated.
   * @example 0
   */
  updated: number;
  /**
   * Items whose id came earlier in the same call: folded into it, so not counted again.
   * @example 0
   */
  duplicates: number;
  /**
   * Items refused (nothing of them was written); `errors` says why.
   * @example 1
   */
  failed: number;
  /** One entry per problem (an item with two bad fields has two), in item order. */
  errors: BulkSubscriberErrorDto[];
}
