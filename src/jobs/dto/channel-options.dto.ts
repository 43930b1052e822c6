import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsObject, IsOptional, IsUUID, Matches, ValidateNested } from 'class-validator';
import { IsText } from '../../common/validation/bounded.js';
import { IsSingleLine } from '../../common/validation/validators.js';
import { IsStringMap } from './string-map.validator.js';

/** A Meta-approved WhatsApp message template (WhatsApp Cloud API `template` object). */
export class WhatsAppTemplateDto {
  /**
   * Template name as approved in WhatsApp Manager.
   * @example "order_shipped"
   */
  @IsText({ pattern: /^[a-z0-9_]{1,512}$/, message: 'must be the template name: lowercase letters, digits and _' })
  name: string;

  /**
   * Language (and locale) of the approved translation.
   * @example "en_US"
   */
  @IsText({ pattern: /^[a-z]{2,3}(_[A-Z]{2})?$/, message: 'must be a template language code such as en or en_US' })
  language: string;

  /**
   * Parameters as Meta's `components` array (header, body, button parameters), passed through unchanged.
   * @example [{"type": "body", "parameters": [{"type": "text", "text": "A-1042"}]}]
   */
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(20)
  @IsObject({ each: true, message: 'each value in components must be an object as Meta documents it' })
  components?: Record<string, unknown>[];
}

/**
 * WhatsApp options. Free text is delivered only inside the 24-hour customer service window;
 * outside it WhatsApp needs an approved template. With both a body and a template, the text is
 * tried first and the template sent when WhatsApp answers that the window is closed.
 */
export class WhatsAppOptionsDto {
  /** Template for the Meta Cloud API (WHATSAPP_PROVIDER=meta). */
  @IsOptional()
  @ValidateNested()
  @Type(() => WhatsAppTemplateDto)
  template?: WhatsAppTemplateDto;

  /**
   * Twilio Content API template (WHATSAPP_PROVIDER=twilio).
   * @example "HXb5b62575e6e4ff6129ad7c8efe1f983e"
   */
  @IsOptional()
  @IsText({ pattern: /^HX[0-9a-fA-F]{32}$/, message: 'must be a Twilio Content SID: HX followed by 32 hex digits' })
  content_sid?: string;

  /**
   * Variables of the Twilio template, by placeholder number.
   * @example {"1": "A-1042", "2": "Tuesday"}
   */
  @IsOptional()
  @IsStringMap()
  content_variables?: Record<string, string>;
}

/** Chat options (Telegram, Slack, Discord). */
export class ChatOptionsDto {
  /**
   * Replaces the text built from subject and body.
   * @example "Deploy finished: api v1.42 is live"
   */
  @IsOptional()
  @IsText({ min: 1, max: 4000 })
  text?: string;

  /**
   * Telegram: label of the inline button that opens `url` (default "Open").
   * @example "View order"
   */
  @IsOptional()
  @IsText({ min: 1, max: 64 })
  @IsSingleLine()
  button?: string;

  /**
   * Telegram: forum topic (message_thread_id) in a supergroup; a positive integer or its decimal string.
   * @example 42
   */
  @IsOptional()
  @Matches(/^[1-9]\d{0,18}$/, { message: 'must be a positive whole number (the forum topic id)' })
  @Type(() => String)
  telegram_thread_id?: string;

  /**
   * Telegram: send through an owner's own bot (a route of POST /v1/telegram/lookup) to its
   * verified chat; `to` must be that chat. Never falls back to the instance's bot.
   * @example "0b6f6f1e-3c1a-4d8e-9a57-2f3b1c9d4e21"
   */
  @IsOptional()
  @IsUUID('all', { message: 'must be a route id (a UUID from POST /v1/telegram/lookup)' })
  telegram_route_id?: string;
}
