import { ApiProperty } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsBase64,
  IsBoolean,
  IsEmail,
  IsIn,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  ValidateNested,
} from 'class-validator';
import { IsListOf } from '../../common/validation/list-of.js';
import { IsText } from '../../common/validation/bounded.js';
import { CHANNELS } from '../../domain/channels.js';
import { SUBSCRIBER_ID_PATTERN } from '../../subscribers/dto/subscriber.dto.js';
import {
  IsChannelList,
  IsHeaderMap,
  IsIdempotencyKey,
  IsPriority,
  IsRfc3339,
  IsSingleLine,
  IsSmsSender,
  validatedBy,
} from '../../common/validation/validators.js';
import { isReservedTag, JOB_ID_TAG, RESERVED_TAG_PREFIX } from '../../connectors/email/reserved-tags.js';
import { normaliseChannel } from '../../domain/channels.js';
import { IsWaitDuration } from '../wait/is-wait-duration.validator.js';
import { ChatOptionsDto, WhatsAppOptionsDto } from './channel-options.dto.js';
import { JobOutcomeDto } from './job-outcome.dto.js';
import { PushOptionsDto } from './push-options.dto.js';
import { IsSendWindowOrFalse, SEND_WINDOW_SCHEMA } from '../../governance/send-windows/send-window.validator.js';
import { IsTrackOption } from '../../governance/tracking/track-option.validator.js';
import { IsTopic } from '../../common/validation/is-topic.js';
import { canonicalLocale, IsBcp47 } from '../../common/validation/locale.js';
import { TEMPLATE_ID_HELP, TEMPLATE_ID_PATTERN } from '../../templates/template-id.js';

/** A tag name of notifyd's own (`notifyd_job_id` names the job in provider webhooks): never the caller's. */
const IsUnreservedTagName = validatedBy('isUnreservedTagName', (value) =>
  typeof value === 'string' && isReservedTag(value)
    ? `may not start with ${RESERVED_TAG_PREFIX}: notifyd reserves it for the tags it adds itself (${JOB_ID_TAG}); rename the tag`
    : undefined,
);

export class TagDto {
  /**
   * Letters, digits, _ or -; not starting with `notifyd_` (reserved).
   * @example "category"
   */
  @IsText({ pattern: /^[A-Za-z0-9_-]{1,256}$/, message: 'must be 1–256 letters, digits, _ or -' })
  @IsUnreservedTagName()
  name: string;

  /** @example "order" */
  @IsText({ pattern: /^[A-Za-z0-9_-]{1,256}$/, message: 'must be 1–256 letters, digits, _ or -' })
  value: string;
}

export class AttachmentDto {
  /** @example "invoice.pdf" */
  @IsText({ min: 1, max: 255, pattern: /^[^\r\n/\\]+$/, message: 'must be a file name without line breaks or slashes' })
  filename: string;

  /**
   * File content, base64-encoded.
   * @example "JVBERi0xLjQK"
   */
  @IsString()
  @IsBase64({}, { message: 'must be base64-encoded file content' })
  content: string;

  /** @example "application/pdf" */
  @IsOptional()
  @IsText({ pattern: /^[\w.+-]+\/[\w.+-]+$/, message: 'must be a MIME type such as application/pdf' })
  content_type?: string;
}

export class SmsOptionsDto {
  /**
   * Sender for this message: E.164 or alphanumeric (1–11 characters, one letter at least).
   * @example "Acme"
   */
  @IsOptional()
  @IsSmsSender()
  from?: string;
}

/** Fields shared by /v1/send and /v1/batch. */
export class MessageContentDto {
  /**
   * Channels to deliver on; one job is queued per channel. Default `["in_app"]`.
   * @example ["email"]
   */
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(CHANNELS.length)
  @ArrayUnique()
  @Transform(({ value }) => (Array.isArray(value) ? value.map(normaliseChannel) : value))
  @IsIn(CHANNELS, { each: true, message: `each value in channels must be one of ${CHANNELS.join(', ')}` })
  channels?: string[];

  /**
   * One channel or a comma-separated list (notifyd's older form of `channels`).
   * @example "email"
   */
  @IsOptional()
  @IsString()
  @IsChannelList()
  channel?: string;

  /**
   * Subject (email, push title). `{{var}}` placeholders are filled from `vars`.
   * @example "Your order {{order_id}} has shipped"
   */
  @IsOptional()
  @IsText({ max: 998 })
  @IsSingleLine()
  subject?: string;

  /**
   * Plain-text body.
   * @example "Hi {{name}}, it is on its way."
   */
  @IsOptional()
  @IsText({ max: 100_000 })
  body?: string;

  /**
   * HTML body (email).
   * @example "<p>Hi {{name}}, it is on its way.</p>"
   */
  @IsOptional()
  @IsText({ max: 1_000_000 })
  body_html?: string;

  /**
   * Values for `{{var}}` placeholders.
   * @example {"name": "Jane", "order_id": "A-1042"}
   */
  @IsOptional()
  @IsObject()
  vars?: Record<string, unknown>;

  /**
   * When to send (RFC 3339 with a time zone); default now.
   * @example "2026-12-01T09:00:00Z"
   */
  @IsOptional()
  @IsRfc3339()
  scheduled_at?: string;

  /**
   * critical (10), high (30), normal (50), low (70), bulk (80) or 0–100; lower goes first.
   */
  @ApiProperty({
    required: false,
    oneOf: [
      { type: 'string', enum: ['critical', 'high', 'normal', 'low', 'bulk'] },
      { type: 'integer', minimum: 0, maximum: 100 },
    ],
    example: 'high',
  })
  @IsOptional()
  @IsPriority()
  priority?: string | number;

  /**
   * In-app icon name.
   * @example "package"
   */
  @IsOptional()
  @IsText({ max: 200 })
  icon?: string;

  /**
   * Deep link (in-app, push, chat button).
   * @example "https://acme.example/orders/A-1042"
   */
  @IsOptional()
  @IsText({ max: 2048 })
  url?: string;

  @IsOptional()
  @ValidateNested()
  @Type(() => SmsOptionsDto)
  sms?: SmsOptionsDto;

  @IsOptional()
  @ValidateNested()
  @Type(() => WhatsAppOptionsDto)
  whatsapp?: WhatsAppOptionsDto;

  @IsOptional()
  @ValidateNested()
  @Type(() => ChatOptionsDto)
  chat?: ChatOptionsDto;

  @IsOptional()
  @ValidateNested()
  @Type(() => PushOptionsDto)
  push?: PushOptionsDto;

  /**
   * When this message may be sent, in the recipient's time zone (overrides the project's
   * window); `false` sends at any time. A job outside its window waits for the next opening.
   */
  @ApiProperty({
    required: false,
    oneOf: [SEND_WINDOW_SCHEMA, { type: 'boolean', enum: [false] }],
    example: { start: '08:00', end: '21:00', tz: 'Europe/Paris', days: [1, 2, 3, 4, 5] },
  })
  @IsOptional()
  @IsSendWindowOrFalse()
  send_window?: Record<string, unknown> | false;

  /**
   * Own open/click tracking for this message: `false` turns it off, `{opens, clicks}` narrows
   * it; `true` or an object opts a transactional email in. Never more than the project allows.
   */
  @ApiProperty({
    required: false,
    oneOf: [
      { type: 'boolean' },
      { type: 'object', properties: { opens: { type: 'boolean' }, clicks: { type: 'boolean' } } },
    ],
    example: { opens: false, clicks: true },
  })
  @IsOptional()
  @IsTrackOption()
  track?: boolean | { opens?: boolean; clicks?: boolean };

  /**
   * What the message is about, for preferences and unsubscribe (lower-cased; default: the
   * template's topic).
   * @example "order-updates"
   */
  @IsOptional()
  @IsTopic()
  topic?: string;

  /**
   * Stored template id, rendered per channel (and locale) at send time; channels without a
   * variant use the inline subject/body.
   * @example "order_shipped"
   */
  @IsOptional()
  @IsString()
  @Matches(TEMPLATE_ID_PATTERN, { message: TEMPLATE_ID_HELP })
  template?: string;

  /**
   * Language for the template (BCP 47); default: the subscriber's locale. A send with `to`
   * has no subscriber, so this picks its variant (`es-MX` → `es` → default).
   * @example "es-MX"
   */
  @IsOptional()
  @IsString()
  @IsBcp47()
  @Transform(({ value }) => canonicalLocale(value) ?? value)
  locale?: string;
}

export class SendRequestDto extends MessageContentDto {
  /**
   * Explicit address used on every requested channel (email, E.164 phone, chat id…).
   * @example "jane@example.com"
   */
  @IsOptional()
  @IsText({ min: 1, max: 2048 })
  @IsSingleLine()
  to?: string;

  /**
   * Subscriber to address from the stored profile (one of `to` or `subscriber_id` is required).
   * @example "user_123"
   */
  @IsOptional()
  @IsString()
  @Matches(SUBSCRIBER_ID_PATTERN, { message: 'must be 1–255 printable characters' })
  subscriber_id?: string;

  /**
   * Makes the request safe to retry: a key held by a live or sent job returns that job;
   * a failed or cancelled job frees it.
   * @example "order-A-1042-shipped"
   */
  @IsOptional()
  @IsIdempotencyKey(200)
  idempotency_key?: string;

  /**
   * Provider tags; `category` = campaign, marketing, newsletter or bulk makes the send a
   * campaign (default priority bulk).
   */
  @IsOptional()
  @IsListOf(() => TagDto, { max: 50 })
  tags?: TagDto[];

  /**
   * Extra email headers (no line breaks; To/From/Cc/Bcc/Subject are set through their fields).
   * @example {"X-Campaign": "winter-sale"}
   */
  @IsOptional()
  @IsHeaderMap()
  email_headers?: Record<string, string>;

  /**
   * Carbon copies (email), at most 10.
   * @example ["ops@acme.example"]
   */
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(10)
  @IsEmail({}, { each: true, message: 'each value in cc must be an email address' })
  cc?: string[];

  /** @example "support@acme.example" */
  @IsOptional()
  @IsEmail({}, { message: 'must be an email address' })
  reply_to?: string;

  /** Email attachments (base64), at most 10. */
  @IsOptional()
  @IsListOf(() => AttachmentDto, { max: 10 })
  attachments?: AttachmentDto[];

  /**
   * Hold the answer until every queued job is final (sent, failed…) or this much time has
   * passed, at most 30s; the answer then carries `outcomes` (the provider's answer) and
   * `timed_out`. Without it the answer comes as soon as the jobs are queued.
   * @example "10s"
   */
  @IsOptional()
  @IsWaitDuration()
  wait?: string;

  /**
   * An undeclinable message (receipt, password reset): preferences are not applied, at enqueue
   * or at send time. Suppressions still are.
   * @example false
   */
  @IsOptional()
  @IsBoolean()
  transactional?: boolean;
}

export class SkippedChannelDto {
  /** @example "sms" */
  channel: string;
  /** @example "subscriber has no phone for sms" */
  reason: string;
}

export class SendResponseDto {
  /** @example true */
  success: boolean;
  /**
   * One job per queued channel, in the order of `channels`.
   * @example ["6f1c2a4e-1d3b-4c5d-9e8f-0a1b2c3d4e5f"]
   */
  job_ids: string[];
  /** @example "2026-11-30T10:00:00.000Z" */
  scheduled_at: string;
  /**
   * Channels queued.
   * @example ["email"]
   */
  channels: string[];
  /**
   * The message's topic (the request's, else the template's).
   * @example "order-updates"
   */
  topic: string | null;
  skipped: SkippedChannelDto[];
  /**
   * true when an idempotency key returned jobs queued by an earlier request.
   * @example false
   */
  deduplicated: boolean;
  /** With `wait` only: each job's state when the answer was sent, in the order of `job_ids`. */
  outcomes?: JobOutcomeDto[];
  /**
   * With `wait` only: true when the time ran out before every job was final; read the jobs
   * later with GET /v1/jobs/{id} (which also accepts `wait`).
   * @example false
   */
  timed_out?: boolean;
}
