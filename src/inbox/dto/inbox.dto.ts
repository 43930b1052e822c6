import { IsBoolean, IsIn, IsOptional, IsString, IsUUID, Matches, ValidateIf } from 'class-validator';
import { IsText, IsWholeNumber } from '../../common/validation/bounded.js';
import { IsDeprecatedOffset } from '../../common/pagination/deprecated-offset.js';
import { IsRfc3339 } from '../../common/validation/validators.js';
import { SUBSCRIBER_ID_PATTERN } from '../../subscribers/dto/subscriber.dto.js';
import { STREAM_FORMATS, type StreamFormat } from '../stream/stream-format.js';
import { IsPageSize } from '../../common/pagination/page-size.js';
import { IsTopic } from '../../common/validation/is-topic.js';

/**
 * The inbox routes' path: the subscriber whose inbox it is. Checked like a subscriber id
 * anywhere else, so a malformed one is a 422 naming it rather than an empty inbox (or, with a
 * NUL, a failed statement).
 */
export class InboxPathDto {
  /** @example "user_123" */
  @IsString()
  @Matches(SUBSCRIBER_ID_PATTERN, { message: 'must be 1–255 printable characters without leading or trailing spaces' })
  subscriber_id: string;
}

export class InboxMessagePathDto extends InboxPathDto {
  /** @example "9b2d6a0e-1f3c-4e5a-8b7c-6d5e4f3a2b1c" */
  @IsUUID('all', {
    message: 'must be a message id (a UUID such as 9b2d6a0e-1f3c-4e5a-8b7c-6d5e4f3a2b1c, from the inbox list)',
  })
  message_id: string;
}

export class ListInboxQueryDto {
  /**
   * Page size, 1–100 (default 20).
   * @example 20
   */
  @IsPageSize(100)
  limit?: number;

  /** @example "WyIyMDI2LTExLTMwIDEwOjAwOjAwKzAwIiwiM2YyYiJd" */
  @IsOptional()
  @IsText({ max: 500 })
  cursor?: string;

  // Kept for notifyd 0.x front-ends; the description is what clients see (OpenAPI, llms.txt).
  @IsDeprecatedOffset(
    'Messages to skip, as notifyd 0.x paged; the answer then carries `offset` and `total` (unarchived messages). Not with a cursor.',
    { max: 100_000 },
  )
  offset?: number;

  /** @example "unread" */
  @IsOptional()
  @IsIn(['unread', 'read', 'unseen', 'todo'])
  status?: string;

  /**
   * notifyd's name for `status`: all, unread or todo.
   * @example "all"
   */
  @IsOptional()
  @IsIn(['all', 'unread', 'todo'])
  filter?: string;

  /**
   * false (default): unarchived messages; true: archived ones only; all: both.
   * @example "false"
   */
  @IsOptional()
  @IsIn(['true', 'false', 'all'])
  archived?: string;

  /**
   * true: only messages snoozed right now (hidden from the default list until they wake).
   * @example "false"
   */
  @IsOptional()
  @IsIn(['true', 'false'])
  snoozed?: string;

  /** @example "orders" */
  @IsOptional()
  @IsTopic()
  topic?: string;

  /**
   * Case-insensitive search in title and body.
   * @example "shipped"
   */
  @IsOptional()
  @IsText({ min: 1, max: 200 })
  q?: string;
}

export class UpdateMessageDto {
  /** @example true */
  @IsOptional()
  @IsBoolean()
  read?: boolean;

  /** @example true */
  @IsOptional()
  @IsBoolean()
  seen?: boolean;

  /** @example false */
  @IsOptional()
  @IsBoolean()
  archived?: boolean;

  /** @example false */
  @IsOptional()
  @IsBoolean()
  is_todo?: boolean;

  /**
   * Hide the message until then (RFC 3339, in the future); null ends a snooze.
   * @example "2026-12-01T09:00:00Z"
   */
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsRfc3339()
  snoozed_until?: string | null;
}

export class BulkInboxDto {
  /**
   * Only messages of this topic (default: all).
   * @example "orders"
   */
  @IsOptional()
  @IsTopic()
  topic?: string;
}

export class InboxMessageDto {
  /** @example "9b2d6a0e-1f3c-4e5a-8b7c-6d5e4f3a2b1c" */
  id: string;
  /** @example "Order shipped" */
  title: string | null;
  /** @example "Your order A-1042 is on its way." */
  body: string;
  /** @example "package" */
  icon: string;
  /** @example "https://acme.example/orders/A-1042" */
  url: string | null;
  /** @example {"order_id": "A-1042"} */
  data: Record<string, unknown>;
  /** @example "orders" */
  topic: string | null;
  /** @example false */
  is_read: boolean;
  /** @example null */
  read_at: string | null;
  /** @example true */
  is_seen: boolean;
  /** @example "2026-11-30T10:01:00.000Z" */
  seen_at: string | null;
  /** @example false */
  is_archived: boolean;
  /** @example null */
  archived_at: string | null;
  /** @example false */
  is_todo: boolean;
  /** @example null */
  snoozed_until: string | null;
  /** @example "2026-11-30T10:00:00.000Z" */
  created_at: string;
}

export class InboxListDto {
  items: InboxMessageDto[];
  /** @example null */
  next_cursor: string | null;
  /** @example 20 */
  limit: number;
  /**
   * Deprecated, with `offset` only (notifyd 0.x's paging): the offset asked for.
   * @example 0
   */
  offset?: number;
  /**
   * Deprecated, with `offset` only: the subscriber's unarchived messages, as notifyd 0.x counted them.
   * @example 42
   */
  total?: number;
}

export class InboxCountsDto {
  /**
   * Unread, unarchived messages not snoozed (the badge).
   * @example 3
   */
  unread_count: number;
  /**
   * Messages never seen (the bell not opened since they arrived).
   * @example 1
   */
  unseen_count: number;
  /** @example 12 */
  total: number;
}

export class InboxMessageResponseDto {
  /** @example true */
  success: boolean;
  message: InboxMessageDto;
}

export class BulkInboxResponseDto {
  /** @example true */
  success: boolean;
  /** @example 3 */
  updated: number;
}

export class StreamTicketResponseDto {
  /**
   * Single use, for `GET …/stream?ticket=`.
   * @example "tkt_3q2v1VhQwA0kQ3bq9m0tXhYq7m3Zr6vY8v0kqGgI2bE"
   */
  ticket: string;
  /** @example 60 */
  expires_in_seconds: number;
  /** @example "/v1/inbox/user_123/stream?ticket=tkt_3q2v1VhQwA0kQ3bq9m0tXhYq7m3Zr6vY8v0kqGgI2bE" */
  stream_url: string;
}

export class StreamQueryDto {
  /**
   * A ticket from POST …/stream-ticket (EventSource cannot send headers).
   * @example "tkt_3q2v1VhQwA0kQ3bq9m0tXhYq7m3Zr6vY8v0kqGgI2bE"
   */
  @IsOptional()
  @IsText({ max: 2000 })
  ticket?: string;

  /**
   * notifyd's name for `ticket` (a ticket only: tokens are refused in URLs).
   * @example "tkt_3q2v1VhQwA0kQ3bq9m0tXhYq7m3Zr6vY8v0kqGgI2bE"
   */
  @IsOptional()
  @IsText({ max: 2000 })
  token?: string;

  /**
   * Replay events after this id (for a new EventSource; a reconnecting one sends the
   * Last-Event-ID header, which wins).
   * @example "42"
   */
  @IsOptional()
  @IsText({ max: 20 })
  last_event_id?: string;

  /**
   * `notifyd` (named events, the default) or `notifyd-0x`: notifyd 0.x's default `message` events
   * carrying `{type: new_notification | count_update}`. Default `notifyd-0x` when the ticket comes
   * as `token` (0.x's parameter name) and `notifyd` otherwise.
   * @example "notifyd"
   */
  @IsOptional()
  @IsIn(STREAM_FORMATS, { message: 'format must be notifyd or notifyd-0x' })
  format?: StreamFormat;
}

export class SubscriberTokenDto {
  /** @example "user_123" */
  @IsString()
  @Matches(SUBSCRIBER_ID_PATTERN, { message: 'must be 1–255 printable characters' })
  subscriber_id: string;

  /**
   * Lifetime in hours, 1–24 (default 2).
   * @example 2
   */
  @IsOptional()
  @IsWholeNumber({ min: 1, max: 24 })
  ttl_hours?: number;
}

export class SubscriberTokenResponseDto {
  /** @example "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJwcm9qZWN0IjoiYWNtZSIsInN1YiI6InVzZXJfMTIzIn0.c2lnbmF0dXJl" */
  token: string;
  /** @example "user_123" */
  subscriber_id: string;
  /** @example "acme" */
  project_id: string;
  /** @example "2026-11-30T12:00:00.000Z" */
  expires_at: string;
  /** @example 2 */
  ttl_hours: number;
}
