import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsOptional, IsString, MaxLength, ValidateIf } from 'class-validator';
import { IsText } from '../../../common/validation/bounded.js';
import { PageQueryDto } from '../../../common/pagination/page-query.dto.js';
import { IsProjectId } from '../../../projects/dto/project-id.validator.js';
import type { Channel } from '../../../domain/channels.js';
import { IsOneChannel } from '../../../common/validation/validators.js';
import { SUPPRESSION_SCOPES, type SuppressionScope } from '../suppression.types.js';
import { IsPageSize } from '../../../common/pagination/page-size.js';

const toBoolean = ({ value }: { value: unknown }) => (value === 'true' ? true : value === 'false' ? false : value);

export class CreateSuppressionDto {
  /**
   * Email address to suppress (notifyd's field; same as `channel: "email"` with `address`).
   * @example "jane@example.com"
   */
  @ValidateIf((o: CreateSuppressionDto) => o.address === undefined || o.email !== undefined)
  @IsString({ message: 'email must be an email address such as jane@example.com (or send channel and address)' })
  @MaxLength(320)
  email?: string;

  /**
   * Channel of `address` (default `email`). SMS and WhatsApp are separate lists: a STOP on
   * one does not silence the other.
   * @example "sms"
   */
  @IsOptional()
  @IsOneChannel()
  channel?: Channel;

  /**
   * The address on that channel: E.164 phone for sms/whatsapp, chat id or webhook for chat,
   * subscriber id for in_app and push.
   * @example "+33612345678"
   */
  @IsOptional()
  @IsText({ min: 1, max: 1000 })
  address?: string;

  /**
   * `all` blocks every message (default); `marketing` blocks only marketing/bulk messages.
   * @example "all"
   */
  @IsOptional()
  @IsIn(SUPPRESSION_SCOPES, { message: `scope must be one of ${SUPPRESSION_SCOPES.join(', ')}` })
  scope?: SuppressionScope;

  /**
   * Why, for your own records.
   * @example "asked by phone to stop all email"
   */
  @IsOptional()
  @IsText({ max: 500 })
  detail?: string;
}

/** PageQueryDto's bounds and checks; only the words differ (this list's default is 200, not 50). */
export class ListSuppressionsQueryDto extends PageQueryDto {
  /**
   * Include released suppressions (the history).
   * @example false
   */
  @IsOptional()
  @Transform(toBoolean)
  @IsBoolean({ message: 'include_released must be true or false' })
  include_released?: boolean;

  /** @example "email" */
  @IsOptional()
  @IsOneChannel()
  channel?: Channel;

  /**
   * Only this address (normalised like stored ones; email when no channel is given).
   * @example "jane@example.com"
   */
  @IsOptional()
  @IsText({ min: 1, max: 1000 })
  address?: string;

  /**
   * Page size, 1–200 (default 200, notifyd's cap).
   * @example 50
   */
  declare limit?: number;

  /** `next_cursor` of the previous page. */
  declare cursor?: string;
}

export class ReleaseSuppressionQueryDto {
  /**
   * Why it is released, kept with the history.
   * @example "customer asked to receive email again"
   */
  @IsOptional()
  @IsText({ max: 500 })
  reason?: string;
}

export class SuppressionDto {
  /** @example "0b8f3c1e-6d0f-4a3e-9a55-2f1e5d6c7b8a" */
  id: string;
  /** @example "acme" */
  project_id: string;
  /** @example "email" */
  channel: string;
  /**
   * Normalised address (email lower-cased, phone E.164).
   * @example "jane@example.com"
   */
  address: string;
  /**
   * The address when the channel is email, else null (notifyd's field).
   * @example "jane@example.com"
   */
  email: string | null;
  /** @example "all" */
  scope: string;
  /**
   * bounce, complaint, manual, unsubscribe, stop or invalid.
   * @example "bounce"
   */
  reason: string;
  /**
   * Who created it: api_key, admin, mcp, worker, a provider webhook, unsubscribe.
   * @example "worker"
   */
  source: string;
  /** @example "resend: HTTP 422: invalid recipient" */
  detail: string | null;
  /**
   * Provider facts behind it (provider, code, bounce type…).
   * @example {"provider": "twilio", "provider_code": "21610"}
   */
  evidence: Record<string, unknown>;
  /** @example "3f2b6f0e-1c1d-4c84-9a57-6d2f0c2b9b11" */
  source_job_id: string | null;
  /** @example null */
  provider_event_id: string | null;
  /** @example "2026-11-30T10:00:00.000Z" */
  created_at: string;
  /** @example null */
  released_at: string | null;
  /** @example null */
  released_by: string | null;
  /** @example null */
  release_reason: string | null;
}

export class SuppressionListDto {
  data: SuppressionDto[];
  /**
   * Pass as `cursor` for the next page; null on the last page.
   * @example null
   */
  next_cursor: string | null;
}

export class CreateSuppressionResponseDto {
  /** @example true */
  success: boolean;
  /**
   * false when the address was already suppressed (the existing suppression is returned).
   * @example true
   */
  created: boolean;
  suppression: SuppressionDto;
}

export class SuppressionResponseDto {
  /** @example true */
  success: boolean;
  suppression: SuppressionDto;
}

export class ReleaseSuppressionResponseDto {
  /** @example true */
  success: boolean;
  /** @example "0b8f3c1e-6d0f-4a3e-9a55-2f1e5d6c7b8a" */
  id: string;
  suppression: SuppressionDto;
}

export class AdminListSuppressionsQueryDto {
  /**
   * Only this project's suppressions.
   * @example "acme"
   */
  @IsOptional()
  @IsProjectId()
  project_id?: string;

  /**
   * At most this many, 1–500 (default 100).
   * @example 100
   */
  @IsPageSize(500)
  limit?: number;
}

export class AdminCreateSuppressionDto extends CreateSuppressionDto {
  /** @example "acme" */
  @IsProjectId()
  project_id: string;
}

/** An active suppression as operators see it: the address masked. */
export class AdminSuppressionDto {
  /** @example "0b8f3c1e-6d0f-4a3e-9a55-2f1e5d6c7b8a" */
  id: string;
  /** @example "acme" */
  project_id: string;
  /** @example "email" */
  channel: string;
  /** @example "j***@example.com" */
  address: string;
  /**
   * The masked address when the channel is email, else null (notifyd's field).
   * @example "j***@example.com"
   */
  email: string | null;
  /** @example "bounce" */
  reason: string;
  /** @example "all" */
  scope: string;
  /** @example "worker" */
  source: string;
  /** @example "HTTP 422: mailbox does not exist" */
  detail: string | null;
  /** @example "2026-11-30T10:00:00.000Z" */
  created_at: string;
}

export class AdminSuppressionListDto {
  suppressions: AdminSuppressionDto[];
  /** @example 1 */
  count: number;
}

export class AdminCreateSuppressionResponseDto {
  /** @example true */
  success: boolean;
  /** @example true */
  created: boolean;
  suppression: AdminSuppressionDto;
}

export class AdminReleaseSuppressionResponseDto {
  /** @example "0b8f3c1e-6d0f-4a3e-9a55-2f1e5d6c7b8a" */
  id: string;
  /** @example true */
  released: boolean;
}
