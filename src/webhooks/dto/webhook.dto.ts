import { Transform } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsBoolean, IsIn, IsOptional, ValidateIf } from 'class-validator';
import { IsText, IsWholeNumber } from '../../common/validation/bounded.js';
import { PageQueryDto } from '../../common/pagination/page-query.dto.js';
import { IsProjectId } from '../../projects/dto/project-id.validator.js';
import { ALL_EVENTS, WEBHOOK_EVENT_TYPES } from '../../domain/webhook-event-types.js';

const EVENT_CHOICES = [...WEBHOOK_EVENT_TYPES, ALL_EVENTS];
const EVENTS_MESSAGE = `each value in events must be one of ${EVENT_CHOICES.join(', ')}`;

export class CreateWebhookDto {
  /**
   * Where deliveries are POSTed: a public http(s) URL (private, loopback, link-local and
   * metadata addresses are refused, also when a host name resolves to them).
   * @example "https://hooks.acme.example/notifyd"
   */
  @IsText({ min: 8, max: 2048 })
  url: string;

  /**
   * Events to receive; `*` for all.
   * @example ["job.sent", "job.failed", "job.bounced"]
   */
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(20)
  @IsIn(EVENT_CHOICES, { each: true, message: EVENTS_MESSAGE })
  events: string[];

  /**
   * Whether deliveries are sent (default true).
   * @example true
   */
  @IsOptional()
  @IsBoolean()
  enabled?: boolean;

  /** @example "Order service" */
  @IsOptional()
  @IsText({ max: 500 })
  description?: string;

  /**
   * Your own signing secret (`whsec_` + base64 of 24–64 bytes); omit it to get a generated one.
   * @example "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
   */
  @IsOptional()
  @IsText({ max: 200 })
  secret?: string;

  /**
   * `standard` (Standard Webhooks headers, the default) or `notifyd-0x`: also signed as notifyd
   * 0.x signed (`X-Notifyd-Signature`: hex HMAC-SHA256 of the body keyed by the secret's bytes) and
   * with 0.x's top-level `event`, `job_id`, `channel`, `subscriber_id` in job events, for a
   * receiver written for 0.x. Its secret may then be any 16–200 characters (0.x's were 32 hex).
   * @example "standard"
   */
  @IsOptional()
  @IsIn(['standard', 'notifyd-0x'], { message: 'signature_format must be standard or notifyd-0x' })
  signature_format?: 'standard' | 'notifyd-0x';
}

export class AdminCreateWebhookDto extends CreateWebhookDto {
  /** @example "acme" */
  @IsProjectId()
  project_id: string;
}

export class UpdateWebhookDto {
  /** @example "https://hooks.acme.example/notifyd/v2" */
  @IsOptional()
  @IsText({ min: 8, max: 2048 })
  url?: string;

  /** @example ["*"] */
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(20)
  @IsIn(EVENT_CHOICES, { each: true, message: EVENTS_MESSAGE })
  events?: string[];

  /**
   * false stops deliveries and cancels those queued; true re-enables a disabled endpoint (it
   * receives new events only).
   * @example true
   */
  @IsOptional()
  @IsBoolean()
  enabled?: boolean;

  /** @example "Order service (v2)" */
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsText({ max: 500 })
  description?: string | null;
}

export class RotateWebhookSecretDto {
  /**
   * How long the old secret keeps signing beside the new one, in seconds (default 86400;
   * 0 = stop at once, at most 7 days).
   * @example 86400
   */
  @IsOptional()
  @IsWholeNumber({ min: 0, max: 604_800 })
  overlap_seconds?: number;
}

export class AdminListWebhooksQueryDto {
  /** @example "acme" */
  @IsOptional()
  @IsProjectId()
  project_id?: string;

  /**
   * Only enabled (true) or disabled (false) endpoints.
   * @example false
   */
  @IsOptional()
  @Transform(({ value }) => (value === 'true' ? true : value === 'false' ? false : value))
  @IsBoolean({ message: 'enabled must be true or false' })
  enabled?: boolean;
}

export class WebhookDto {
  /** @example "3f2b8c1e-7a0d-4b6e-9f1a-2c3d4e5f6a7b" */
  id: string;
  /** @example "acme" */
  project_id: string;
  /** @example "https://hooks.acme.example/notifyd" */
  url: string;
  /** @example "Order service" */
  description: string | null;
  /** @example ["job.sent", "job.failed"] */
  events: string[];
  /** @example true */
  enabled: boolean;
  /**
   * The secret is shown once; this is its prefix and last characters.
   * @example "whsec_…Sw=="
   */
  secret_hint: string;
  /**
   * How deliveries are signed: `standard`, or `notifyd-0x` (also 0.x's X-Notifyd-Signature).
   * @example "standard"
   */
  signature_format: 'standard' | 'notifyd-0x';
  /**
   * Until when the previous secret still signs (after a rotation), else null.
   * @example null
   */
  previous_secret_expires_at: string | null;
  /** @example null */
  disabled_at: string | null;
  /**
   * Why notifyd (410 Gone, a refused address, a day of failures) or an operator disabled it.
   * @example null
   */
  disabled_reason: string | null;
  /** @example "2026-11-30T10:00:00.000Z" */
  last_success_at: string | null;
  /** @example null */
  last_failure_at: string | null;
  /**
   * Failed delivery attempts in a row, over all deliveries (a success resets it); from 5 the
   * endpoint is paused.
   * @example 0
   */
  consecutive_failures: number;
  /**
   * Circuit breaker: while in the future no delivery goes to the endpoint (they stay queued,
   * their attempts untouched); then one probe goes, and a success clears it. Null: not paused.
   * @example null
   */
  paused_until: string | null;
  /** @example "2026-11-30T10:00:00.000Z" */
  created_at: string;
  /** @example "2026-11-30T10:00:00.000Z" */
  updated_at: string;
}

export class CreateWebhookResponseDto {
  /** @example true */
  success: boolean;
  /** @example "3f2b8c1e-7a0d-4b6e-9f1a-2c3d4e5f6a7b" */
  id: string;
  /**
   * The signing secret (Standard Webhooks), shown this once.
   * @example "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
   */
  secret: string;
  /** @example "Store the secret now: it cannot be shown again." */
  warning: string;
  webhook: WebhookDto;
}

export class WebhookResponseDto {
  /** @example true */
  success: boolean;
  webhook: WebhookDto;
}

export class WebhookListDto {
  webhooks: WebhookDto[];
  /** @example 1 */
  count: number;
}

export class RotateWebhookSecretResponseDto {
  /** @example true */
  success: boolean;
  /**
   * The new secret, shown this once.
   * @example "whsec_2Xq0pIuS9m5oRk1n5QpY0m2h8dPpWc1bX6k3Xk0wQfE="
   */
  secret: string;
  /**
   * Until when the previous secret also signs (two signatures per message); null with no overlap.
   * @example "2026-12-01T10:00:00.000Z"
   */
  previous_secret_valid_until: string | null;
  webhook: WebhookDto;
}

export class DeleteWebhookResponseDto {
  /** @example true */
  success: boolean;
  /** @example "3f2b8c1e-7a0d-4b6e-9f1a-2c3d4e5f6a7b" */
  id: string;
}

export class ListDeliveriesQueryDto extends PageQueryDto {
  /** @example "failed" */
  @IsOptional()
  @IsIn(['pending', 'processing', 'retry', 'delivered', 'failed', 'cancelled'])
  status?: string;
}

export class DeliveryAttemptDto {
  /** @example 1 */
  attempt: number;
  /** @example "2026-11-30T10:00:05.000Z" */
  at: string;
  /** @example 503 */
  status_code: number | null;
  /** @example 182 */
  duration_ms: number;
  /** @example "HTTP 503: upstream unavailable" */
  error: string | null;
}

export class DeliveryDto {
  /** @example "6f1c2a4e-1d3b-4c5d-9e8f-0a1b2c3d4e5f" */
  id: string;
  /**
   * The `webhook-id` header: the same on every attempt, so receivers can deduplicate.
   * @example "msg_6f1c2a4e1d3b4c5d9e8f0a1b2c3d4e5f"
   */
  webhook_id: string;
  /** @example "job.sent" */
  event_type: string;
  /** @example "retry" */
  status: string;
  /** @example 2 */
  attempts: number;
  /** @example 10 */
  max_attempts: number;
  /**
   * When the next attempt is due (retry, pending), else null.
   * @example "2026-11-30T10:06:05.000Z"
   */
  next_attempt_at: string | null;
  /** @example 503 */
  last_status_code: number | null;
  /** @example "HTTP 503: upstream unavailable" */
  last_error: string | null;
  attempt_log: DeliveryAttemptDto[];
  /**
   * The JSON body sent: {type, timestamp, data}.
   * @example {"type": "job.sent", "timestamp": "2026-11-30T10:00:00.000Z", "data": {"job_id": "…", "channel": "email"}}
   */
  payload: Record<string, unknown>;
  /** @example "2026-11-30T10:00:00.000Z" */
  created_at: string;
  /** @example null */
  finished_at: string | null;
}

export class DeliveryListDto {
  items: DeliveryDto[];
  /** @example null */
  next_cursor: string | null;
  /** @example 50 */
  limit: number;
}

export class DeliveryResponseDto {
  /** @example true */
  success: boolean;
  delivery: DeliveryDto;
}
