import { ApiProperty } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsBoolean, IsObject, IsOptional, IsString, Matches, ValidateIf } from 'class-validator';
import { SEGMENT_SCHEMA } from '../../governance/segments/dto/segment.dto.js';
import { MessageContentDto } from './send.dto.js';
import { IsSubscriberIdList } from './subscriber-id-list.validator.js';

/** The largest fan-out of one call; bigger audiences go in several calls (or a segment later). */
export const BATCH_MAX_SUBSCRIBERS = 10_000;

export class BatchRequestDto extends MessageContentDto {
  /**
   * Subscriber ids to send to (at most 10 000 per call; duplicates are sent once). Give
   * either `subscribers` or `segment`.
   * @example ["user_1", "user_2", "user_3"]
   */
  @ValidateIf((o: BatchRequestDto) => o.segment === undefined || o.subscribers !== undefined)
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(BATCH_MAX_SUBSCRIBERS, { message: `subscribers may hold at most ${BATCH_MAX_SUBSCRIBERS} ids per call; split the audience into several calls` })
  @IsSubscriberIdList()
  subscribers?: string[];

  /**
   * Send to every subscriber a segment matches (instead of `subscribers`), read and queued in
   * pages of SEGMENT_PAGE_SIZE: no size limit.
   */
  @ApiProperty({ required: false, allOf: [SEGMENT_SCHEMA] })
  @IsOptional()
  @IsObject()
  segment?: Record<string, unknown>;

  /**
   * Makes the whole batch safe to replay: each job's key is `<key>-<subscriber>-<channel>`.
   * @example "winter-sale-2026"
   */
  @IsOptional()
  @IsString()
  @Matches(/^[\x21-\x7e]{1,120}$/, { message: 'must be 1–120 printable ASCII characters without spaces' })
  idempotency_key?: string;

  /**
   * Not accepted here: a fan-out must honour opt-outs (`true` is a 400). Send undeclinable
   * messages one by one with POST /v1/send.
   * @example false
   */
  @IsOptional()
  @IsBoolean()
  transactional?: boolean;
}

export class BatchResponseDto {
  /** @example true */
  success: boolean;
  /** @example 4998 */
  jobs_created: number;
  /**
   * Jobs whose idempotency key was already held by a live or sent job.
   * @example 0
   */
  jobs_deduplicated: number;
  /**
   * Jobs not queued because the address is suppressed, the subscriber opted out, a recipient
   * cap is reached, or the subscriber's address cannot be delivered on the channel.
   * @example 0
   */
  jobs_skipped: number;
  /**
   * Subscriber × channel pairs with no address (or unknown subscribers).
   * @example 2
   */
  jobs_without_address: number;
  /**
   * Distinct subscribers in the request.
   * @example 5000
   */
  subscribers: number;
  /** @example ["email"] */
  channels: string[];
  /** @example null */
  topic: string | null;
  /**
   * Every subscriber × channel pair not queued, counted by rule: `suppressed`, `opted_out`,
   * `capped`, `invalid_address` (jobs_skipped), `unknown_subscriber`, `no_address`
   * (jobs_without_address).
   * @example {"no_address": 2}
   */
  skipped_by_reason: Record<string, number>;
  /** The first 100 pairs not queued, each with its reason (skipped_by_reason counts them all). */
  skipped: BatchSkipDto[];
}

export class BatchSkipDto {
  /** @example "user_7" */
  subscriber_id: string;
  /** @example "email" */
  channel: string;
  /** @example "subscriber has no email for email" */
  reason: string;
}
