import { Transform } from 'class-transformer';
import { canonicalLocale, IsBcp47 } from '../../common/validation/locale.js';
import { FitsDataLimit } from './data-size.validator.js';
import { HasNoNul } from './no-nul.validator.js';
import { IsKnownTimeZone } from './time-zone.validator.js';
import { IsEmail, IsObject, IsOptional, IsString, Matches, MaxLength, ValidateIf } from 'class-validator';
import { IsText } from '../../common/validation/bounded.js';
import { IsDeprecatedOffset } from '../../common/pagination/deprecated-offset.js';
import { PageLimitQueryDto } from '../../common/pagination/page-query.dto.js';
import { SUBSCRIBER_ID_PATTERN } from '../../domain/subscriber-id.js';

// Defined in the domain so push-tokens' DTO checks the same ids without importing subscribers.
export { SUBSCRIBER_ID_PATTERN };
const SUBSCRIBER_ID_MESSAGE = 'must be 1–255 printable characters without leading or trailing spaces (e.g. "user_123")';
/** E.164: a plus sign, then 7–15 digits, not starting with 0. */
export const E164_PATTERN = /^\+[1-9]\d{6,14}$/;

export class UpsertSubscriberDto {
  /**
   * Your own id for this person; every later call refers to them by it.
   * @example "user_123"
   */
  @IsString()
  @Matches(SUBSCRIBER_ID_PATTERN, { message: SUBSCRIBER_ID_MESSAGE })
  id: string;

  /**
   * Address for the email channel; `null` clears it, absent keeps it.
   * @example "jane@example.com"
   */
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsEmail({}, { message: 'must be an email address such as jane@example.com, or null to clear it' })
  @MaxLength(320)
  email?: string | null;

  /**
   * Number for SMS and WhatsApp in E.164 form; `null` clears it.
   * @example "+33612345678"
   */
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsString()
  @Matches(E164_PATTERN, { message: 'must be an E.164 number: a + then 7 to 15 digits, e.g. +33612345678' })
  phone?: string | null;

  /** @example "Jane" */
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsText({ max: 200 })
  @HasNoNul()
  first_name?: string | null;

  /** @example "Doe" */
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsText({ max: 200 })
  @HasNoNul()
  last_name?: string | null;

  /**
   * BCP 47 language tag used to pick template variants (stored canonical: `es-mx` → `es-MX`).
   * @example "fr-FR"
   */
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsString()
  @IsBcp47()
  @Transform(({ value }) => canonicalLocale(value) ?? value)
  locale?: string | null;

  /**
   * IANA time zone for send windows and quiet hours.
   * @example "Europe/Paris"
   */
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsKnownTimeZone({ message: 'must be an IANA time zone such as Europe/Paris or America/New_York' })
  timezone?: string | null;

  /**
   * Free-form attributes, shallow-merged into the stored ones (chat ids live here:
   * `telegram_chat_id`, `slack`, `discord_webhook`).
   * @example {"plan": "pro", "telegram_chat_id": "123456"}
   */
  @IsOptional()
  @IsObject()
  @HasNoNul()
  @FitsDataLimit()
  data?: Record<string, unknown>;
}

export class ListSubscribersQueryDto extends PageLimitQueryDto {
  /**
   * `next_cursor` of the previous page.
   * @example "WyJ1c2VyXzEyMyJd"
   */
  @IsOptional()
  @IsText({ max: 1000 })
  cursor?: string;

  /**
   * Case-insensitive search in id, email, first and last name.
   * @example "jane"
   */
  @IsOptional()
  @IsText({ min: 1, max: 200 })
  q?: string;

  // Kept for notifyd 0.x callers; the description is what clients see (OpenAPI, llms.txt).
  @IsDeprecatedOffset(
    'Subscribers to skip, as notifyd 0.x paged (0–100000); the answer then carries `offset` and `total` (the subscribers matching `q`). Not with a cursor.',
    { max: 100_000, message: 'must be a whole number between 0 and 100000' },
  )
  offset?: number;
}

export class SubscriberDto {
  /** @example "user_123" */
  id: string;
  /** @example "jane@example.com" */
  email: string | null;
  /** @example "+33612345678" */
  phone: string | null;
  /** @example "Jane" */
  first_name: string | null;
  /** @example "Doe" */
  last_name: string | null;
  /** @example "fr-FR" */
  locale: string | null;
  /** @example "Europe/Paris" */
  timezone: string | null;
  /** @example {"plan": "pro"} */
  data: Record<string, unknown>;
  /**
   * Only in answers to the read-only operator key: `data` can hold webhook URLs and other
   * secrets, so its values are withheld (`data` is then `{}`) and this names its keys, sorted.
   * @example ["plan", "slack"]
   */
  withheld_data_keys?: string[];
  /** @example "2026-11-30T10:00:00.000Z" */
  created_at: string;
  /** @example "2026-11-30T10:00:00.000Z" */
  updated_at: string;
}

export class UpsertSubscriberResponseDto {
  /** @example true */
  success: boolean;
  /** @example "user_123" */
  id: string;
  /** @example "acme" */
  project_id: string;
  /**
   * true when this call created the subscriber.
   * @example true
   */
  created: boolean;
}

export class SubscriberListDto {
  items: SubscriberDto[];
  /**
   * Pass as `cursor` to get the next page; null on the last page.
   * @example "WyJ1c2VyXzEyMyJd"
   */
  next_cursor: string | null;
  /** @example 50 */
  limit: number;
  /**
   * Deprecated, with `offset` only (notifyd 0.x's paging): the offset asked for.
   * @example 0
   */
  offset?: number;
  /**
   * Deprecated, with `offset` only: the subscribers matching `q`, as notifyd 0.x counted them.
   * @example 1820
   */
  total?: number;
}
