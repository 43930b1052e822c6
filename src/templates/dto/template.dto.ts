import { Transform, Type } from 'class-transformer';
import { IsObject, IsOptional, IsString, Matches, MaxLength, MinLength, ValidateNested } from 'class-validator';
import { IsText } from '../../common/validation/bounded.js';
import { IsDeprecatedOffset } from '../../common/pagination/deprecated-offset.js';
import { PageLimitQueryDto } from '../../common/pagination/page-query.dto.js';
import { canonicalLocale, IsBcp47 } from '../../common/validation/locale.js';
import { IsOneChannel, IsSingleLine } from '../../common/validation/validators.js';
import { IsTopic } from '../../common/validation/is-topic.js';
import { SUBSCRIBER_ID_PATTERN } from '../../subscribers/dto/subscriber.dto.js';
import { TEMPLATE_ID_HELP, TEMPLATE_ID_PATTERN } from '../template-id.js';

const toLocale = ({ value }: { value: unknown }) => canonicalLocale(value) ?? value;

/** The source an editor holds: the same fields and bounds as a saved variant's. */
// Its fields keep the plain decorators: subclasses redeclare them with their own descriptions, and
// the schema keeps its key order only when the plugin sees every bound (see DocumentConstraints).
export class TemplateDraftDto {
  /** @example "Your order {{order_id}} has shipped" */
  @IsOptional()
  @IsString()
  @MaxLength(998)
  @IsSingleLine()
  subject?: string;

  /** @example "Hi {{name}}, order {{order_id}} is on its way." */
  @IsString()
  @MinLength(1)
  @MaxLength(100_000)
  body: string;

  /** @example "<p>Hi {{name}}</p>" */
  @IsOptional()
  @IsString()
  @MaxLength(1_000_000)
  body_html?: string;
}

/**
 * A saved variant: the draft's content (its checks, documented here for the API) with the
 * template id, channel, locale and default topic.
 */
export class UpsertTemplateDto extends TemplateDraftDto {
  /**
   * Your name for the template; sends refer to it as `template`.
   * @example "order_shipped"
   */
  @IsString()
  @Matches(TEMPLATE_ID_PATTERN, { message: TEMPLATE_ID_HELP })
  id: string;

  /** @example "email" */
  @IsOneChannel()
  channel: string;

  /**
   * Language of this variant (BCP 47); absent = the channel's default variant. A recipient
   * in `es-MX` gets `es-MX`, else `es`, else the default.
   * @example "es-MX"
   */
  @IsOptional()
  @IsString()
  @IsBcp47()
  @Transform(toLocale)
  locale?: string;

  /**
   * Subject (email, push title); Liquid, not escaped.
   * @example "Your order {{order_id}} has shipped"
   */
  declare subject?: string;

  /**
   * Plain-text body; Liquid (`{{var}}`, filters, `{% if %}`, `{% for %}`), not escaped.
   * @example "Hi {{name}}, order {{order_id}} is on its way."
   */
  declare body: string;

  /**
   * HTML body (email); every `{{ }}` output is HTML-escaped unless piped through `| raw`.
   * @example "<p>Hi {{name}}, order <b>{{order_id}}</b> is on its way.</p>"
   */
  declare body_html?: string;

  /**
   * Default topic of sends that use this template (a request's own topic wins).
   * @example "order-updates"
   */
  @IsOptional()
  @IsTopic()
  topic?: string;
}

export class ListTemplatesQueryDto extends PageLimitQueryDto {
  /**
   * `next_cursor` of the previous page.
   * @example "WyJvcmRlcl9zaGlwcGVkIiwiZW1haWwiLCIiXQ"
   */
  @IsOptional()
  @IsText({ max: 1000 })
  cursor?: string;

  // Kept so that existing callers still work; the description is what clients see (OpenAPI, llms.txt).
  @IsDeprecatedOffset('Rows to skip, for callers that still page by offset; not with a cursor.', { max: 1_000_000 })
  offset?: number;

  /**
   * Only variants of this channel.
   * @example "email"
   */
  @IsOptional()
  @IsOneChannel()
  channel?: string;
}

export class DeleteTemplateQueryDto {
  /**
   * Delete only this channel's variants.
   * @example "sms"
   */
  @IsOptional()
  @IsOneChannel()
  channel?: string;

  /**
   * Delete only this locale's variants (`default` for the default variant).
   * @example "es-MX"
   */
  @IsOptional()
  @IsText({
    pattern: /^(default|[A-Za-z0-9-]{1,35})$/,
    message: 'locale must be a language tag such as es-MX, or default',
  })
  locale?: string;
}

export class PreviewTemplateDto {
  /**
   * Which channel's variant; required when the template has several channels.
   * @example "email"
   */
  @IsOptional()
  @IsOneChannel()
  channel?: string;

  /**
   * Render as for a recipient in this locale (with the usual fallback).
   * @example "es-MX"
   */
  @IsOptional()
  @IsString()
  @IsBcp47()
  @Transform(toLocale)
  locale?: string;

  /**
   * Render for this stored subscriber, as a send to them would: their profile is `subscriber`
   * (and `first_name`, `last_name`, `email`, `phone`, `locale`, `timezone` at the top level),
   * their locale picks the variant unless `locale` is given, and `vars` win over profile fields.
   * @example "user_123"
   */
  @IsOptional()
  @IsString()
  @Matches(SUBSCRIBER_ID_PATTERN, { message: 'subscriber_id must be 1–255 printable characters' })
  subscriber_id?: string;

  /**
   * Sample variables.
   * @example {"name": "Jane", "order_id": "A-1042"}
   */
  @IsOptional()
  @IsObject()
  vars?: Record<string, unknown>;

  /**
   * Render this unsaved source instead of the stored variant's (the variant is still picked by
   * channel and locale, and its topic reported): an editor's live preview. Nothing is saved.
   */
  @IsOptional()
  @ValidateNested()
  @Type(() => TemplateDraftDto)
  draft?: TemplateDraftDto;
}

export class TemplateVariantDto {
  /** @example "order_shipped" */
  id: string;
  /** @example "email" */
  channel: string;
  /**
   * null for the channel's default variant.
   * @example "es-MX"
   */
  locale: string | null;
  /** @example "Your order {{order_id}} has shipped" */
  subject: string | null;
  /** @example "Hi {{name}}, order {{order_id}} is on its way." */
  body: string;
  /** @example "<p>Hi {{name}}</p>" */
  body_html: string | null;
  /** @example "order-updates" */
  topic: string | null;
  /** @example "2026-11-30T10:00:00.000Z" */
  created_at: string;
  /** @example "2026-11-30T10:00:00.000Z" */
  updated_at: string;
}

export class UpsertTemplateResponseDto {
  /** @example true */
  success: boolean;
  /** @example "order_shipped" */
  id: string;
  /** @example "email" */
  channel: string;
  /** @example null */
  locale: string | null;
  /**
   * true when this call created the variant.
   * @example true
   */
  created: boolean;
}

export class TemplateListDto {
  items: TemplateVariantDto[];
  /**
   * Pass as `cursor` to get the next page; null on the last page.
   * @example "WyJvcmRlcl9zaGlwcGVkIiwiZW1haWwiLCIiXQ"
   */
  next_cursor: string | null;
  /**
   * Variants in the whole listing (of `channel` if given), not only this page.
   * @example 1
   */
  total: number;
  /** @example 50 */
  limit: number;
  /**
   * The `offset` asked for (0 without one). Deprecated with the `offset` parameter.
   * @example 0
   */
  offset: number;
}

export class TemplateDto {
  /** @example "order_shipped" */
  template_id: string;
  variants: TemplateVariantDto[];
}

export class DeleteTemplateResponseDto {
  /** @example true */
  success: boolean;
  /**
   * Variants deleted.
   * @example 2
   */
  deleted: number;
}

export class TemplatePreviewDto {
  /** @example "order_shipped" */
  template_id: string;
  /** @example "email" */
  channel: string;
  /**
   * The variant used (null = default).
   * @example "es"
   */
  locale: string | null;
  /** @example "Tu pedido A-1042 ha sido enviado" */
  subject: string | null;
  /** @example "Hola Jane, tu pedido A-1042 está en camino." */
  body: string;
  /** @example "<p>Hola Jane</p>" */
  body_html: string | null;
  /** @example "order-updates" */
  topic: string | null;
}
