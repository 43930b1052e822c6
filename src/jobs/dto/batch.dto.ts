import { ApiProperty } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsBoolean, IsObject, IsOptional, ValidateIf } from 'class-validator';
import { IsListOf } from '../../common/validation/list-of.js';
import { IsIdempotencyKey } from '../../common/validation/validators.js';
import { SEGMENT_SCHEMA } from '../../governance/segments/dto/segment.dto.js';
import { MessageContentDto, TagDto } from './send.dto.js';
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
  @ArrayMaxSize(BATCH_MAX_SUBSCRIBERS, {
    message: `subscribers may hold at most ${BATCH_MAX_SUBSCRIBERS} ids per call; split the audience into several calls`,
  })
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
  @IsIdempotencyKey(120)
  idempotency_key?: string;

  /**
   * Not accepted here: a fan-out must honour opt-outs (`true` is a 400). Send undeclinable
   * messages one by one with POST /v1/send.
   * @example false
   */
  @IsOptional()
  @IsBoolean()
  transactional?: boolean;

  /**
   * Provider tags on every job of the batch, stored and sent as a single send's are (e.g. a
   * campaign name); GET /v1/batches/:id shows them.
   * @example [{"name": "campaign", "value": "winter-sale"}]
   */
  @IsOptional()
  @IsListOf(() => TagDto, { max: 50 })
  tags?: TagDto[];
}

export class BatchResponseDto {
  /** @example true */
  success: boolean;
  /**
   * The batch's id: GET /v1/batches/{batch_id} tells how its jobs are doing.
   * @example "019ad0c4-5b1e-7c3a-9f2e-4d6b8a0c1e2f"
   */
  batch_id: string;
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

/** GET /v1/batches/:id: a batch call and how its jobs are doing now. */
export class BatchStatusDto {
  /** @example "019ad0c4-5b1e-7c3a-9f2e-4d6b8a0c1e2f" */
  id: string;
  /**
   * When the call started.
   * @example "2026-12-02T09:00:00.000Z"
   */
  created_at: string;
  /**
   * When the call finished queueing (null while a segment is still being read).
   * @example "2026-12-02T09:00:01.250Z"
   */
  completed_at: string | null;
  /** @example ["email"] */
  channels: string[];
  /**
   * The tags the batch was sent with.
   * @example [{"name": "campaign", "value": "winter-sale"}]
   */
  tags: TagDto[];
  /** @example "newsletter" */
  topic: string | null;
  /** @example 90 */
  priority: number;
  /**
   * The requested send time (null: at once).
   * @example "2026-12-02T18:00:00.000Z"
   */
  scheduled_at: string | null;
  /** The segment filter, when the batch was sent to one. */
  @ApiProperty({ required: false, nullable: true, type: Object })
  segment: Record<string, unknown> | null;
  /**
   * Distinct subscribers read.
   * @example 500
   */
  subscribers: number;
  /**
   * Jobs the call created.
   * @example 498
   */
  jobs_created: number;
  /**
   * Jobs an earlier call already held under the batch's idempotency key.
   * @example 0
   */
  jobs_deduplicated: number;
  /**
   * Subscriber × channel pairs not queued, by rule (as in the batch answer).
   * @example {"opted_out": 2}
   */
  skipped_by_reason: Record<string, number>;
  /** The created jobs by where they are now (jobs past their retention are no longer counted). */
  jobs: BatchJobCountsDto;
}

export class BatchJobCountsDto {
  /**
   * Waiting: pending or scheduled for later, or waiting to retry.
   * @example 400
   */
  queued: number;
  /**
   * Being sent right now.
   * @example 0
   */
  processing: number;
  /** @example 95 */
  sent: number;
  /** @example 1 */
  failed: number;
  /** @example 2 */
  bounced: number;
  /** @example 0 */
  cancelled: number;
}
