import { Type } from 'class-transformer';
import { IsEmail, IsObject, IsOptional, ValidateIf } from 'class-validator';
import { IsText, IsWholeNumber } from '../../common/validation/bounded.js';
import { IsChannelArray } from '../../common/validation/validators.js';
import { RATE_LIMIT_PER_MIN } from '../project.types.js';
import { IsProjectId } from './project-id.validator.js';

export class CreateProjectDto {
  /**
   * Slug used in keys and URLs: lowercase letters, digits, `-` and `_`, 1–63 characters.
   * @example "acme"
   */
  @IsProjectId()
  id: string;

  /**
   * Human-readable name.
   * @example "Acme Inc."
   */
  @IsText({ min: 1, max: 200 })
  name: string;

  /**
   * Channels this project intends to use (reported by GET /v1/channels; the columns of its
   * subscribers' preference page).
   * @example ["email", "in_app"]
   */
  @IsOptional()
  @IsChannelArray()
  channels?: string[];

  /**
   * Inbound requests per minute allowed for this project's key.
   * @example 600
   */
  @IsOptional()
  @Type(() => Number)
  @IsWholeNumber(RATE_LIMIT_PER_MIN)
  rate_limit_per_min?: number;

  /**
   * Free-form project settings (send_window, tracking, preference_topics… as features define them).
   * @example {}
   */
  @IsOptional()
  @IsObject()
  settings?: Record<string, unknown>;

  /**
   * Sender address for this project's email; unset = the instance's EMAIL_FROM.
   * @example "hello@acme.example"
   */
  @IsOptional()
  @IsEmail({}, { message: 'must be an email address such as hello@acme.example' })
  from_email?: string;

  /**
   * Display name for this project's email sender.
   * @example "Acme"
   */
  @IsOptional()
  @IsText({ max: 200, pattern: /^[^\r\n]*$/, message: 'must be a single line' })
  from_name?: string;
}

export class UpdateProjectDto {
  /** @example "Acme Inc." */
  @IsOptional()
  @IsText({ min: 1, max: 200 })
  name?: string;

  /** @example ["email", "sms", "in_app"] */
  @IsOptional()
  @IsChannelArray()
  channels?: string[];

  /**
   * Sender address; `null` or `""` clears it (the instance default applies).
   * @example "hello@acme.example"
   */
  @IsOptional()
  @ValidateIf((_, v) => v !== null && v !== '')
  @IsEmail({}, { message: 'must be an email address such as hello@acme.example, or null to clear it' })
  from_email?: string | null;

  /** @example "Acme" */
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsText({ max: 200, pattern: /^[^\r\n]*$/, message: 'must be a single line' })
  from_name?: string | null;

  /** @example 1200 */
  @IsOptional()
  @Type(() => Number)
  @IsWholeNumber(RATE_LIMIT_PER_MIN)
  rate_limit_per_min?: number;

  /**
   * Settings merged into the current ones (top-level keys replace).
   * @example {}
   */
  @IsOptional()
  @IsObject()
  settings?: Record<string, unknown>;

  /**
   * notifyd 0.x's form of `settings.send_window` (still accepted): a window object
   * {start, end, tz, days, applies_to}, checked as everywhere; `null` removes it.
   * @example {"start": "08:00", "end": "20:00", "tz": "Europe/Paris"}
   */
  @IsOptional()
  send_window?: Record<string, unknown> | null;

  /**
   * notifyd 0.x's form of `settings.tracking` (still accepted): `true`/`false`, or
   * {opens, clicks, applies_to: "marketing" | "all"}; `null` restores the default (marketing email tracked).
   * @example {"opens": false, "clicks": true}
   */
  @IsOptional()
  tracking?: boolean | Record<string, unknown> | null;
}

export class ProjectDto {
  /** @example "acme" */
  id: string;
  /** @example "Acme Inc." */
  name: string;
  /** @example ["email", "in_app"] */
  channels: string[];
  /** @example 600 */
  rate_limit_per_min: number;
  /** @example {} */
  settings: Record<string, unknown>;
  /** @example "hello@acme.example" */
  from_email: string | null;
  /** @example "Acme" */
  from_name: string | null;
  /**
   * Prefix and last four characters of the primary key.
   * @example "sk_acme_…9f3a"
   */
  api_key_hint: string | null;
  /**
   * The previous key, still valid until revoked, if the key was rotated.
   * @example null
   */
  secondary_api_key_hint: string | null;
  /** @example "2026-11-30T10:00:00.000Z" */
  created_at: string;
  /** @example "2026-11-30T10:00:00.000Z" */
  updated_at: string;
}

export class ProjectListDto {
  projects: ProjectDto[];
}

export class CreatedProjectKeyDto {
  /** @example "acme" */
  id: string;
  /**
   * The project's API key. It is shown this once; notifyd stores only its SHA-256.
   * @example "sk_acme_5f0c7e1d2b3a49586f7e8d9c0b1a2f3e"
   */
  api_key: string;
}

export class CreateProjectResponseDto {
  /** @example true */
  success: boolean;
  project: CreatedProjectKeyDto;
  /** @example "Store the api_key now: it cannot be shown again. Rotate it with POST /v1/admin/projects/acme/rotate-key." */
  warning: string;
}

export class ProjectResponseDto {
  /** @example true */
  success: boolean;
  project: ProjectDto;
}

export class RotateKeyResponseDto {
  /** @example true */
  success: boolean;
  /** @example "acme" */
  id: string;
  /**
   * The new primary key, shown once.
   * @example "sk_acme_0a1b2c3d4e5f60718293a4b5c6d7e8f9"
   */
  new_api_key: string;
  /** @example "The previous key stays valid until POST /v1/admin/projects/acme/revoke-secondary." */
  note: string;
}

export class SuccessDto {
  /** @example true */
  success: boolean;
}
