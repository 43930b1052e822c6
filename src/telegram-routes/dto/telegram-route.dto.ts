import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsIn, IsOptional, IsString, Matches } from 'class-validator';
import { IsText } from '../../common/validation/bounded.js';
import { TELEGRAM_BOT_TOKEN_PATTERN } from '../../config/sections/chat-providers.config.js';
import { TELEGRAM_CHAT } from '../../connectors/chat/chat-ids.js';

/** An owner id: opaque to notifyd (the caller's user id), 1–255 printable characters. */
export const OWNER_PATTERN = /^[^\s\x00-\x1f\x7f/](?:[^\x00-\x1f\x7f/]{0,253}[^\s\x00-\x1f\x7f/])?$/;
const OWNER_MESSAGE =
  'must be 1–255 printable characters without a slash or surrounding spaces (your user id, e.g. "user_123")';

/** Most owners one lookup names. */
export const LOOKUP_MAX = 100;

export class OwnerPathDto {
  /** @example "user_123" */
  @IsString()
  @Matches(OWNER_PATTERN, { message: `owner ${OWNER_MESSAGE}` })
  owner: string;
}

export class WebhookPathDto {
  /** @example "5f0c8a62-3f2e-4c43-9d4b-0e8c5d7b9a11" */
  @IsText({ max: 64 })
  connection_id: string;
}

export class PutTelegramBotDto {
  /**
   * The owner's own bot token from @BotFather (never the instance's TELEGRAM_BOT_TOKEN). Stored
   * encrypted; never returned (responses show `token_hint`).
   * @example "123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw"
   */
  @IsText({ max: 200 })
  @Matches(TELEGRAM_BOT_TOKEN_PATTERN, { message: 'bot_token must be a bot token from @BotFather (123456789:AAH…)' })
  bot_token: string;

  /**
   * Public https base URL of this notifyd's Telegram webhook route; the bot's webhook becomes
   * `<webhook_base>/<connection id>`.
   * @example "https://notifyd.example.com/v1/telegram/webhooks"
   */
  @IsText({
    max: 500,
    pattern: /^https:\/\/[^\s/?#]+(\/[^\s?#]*)?$/,
    message:
      'webhook_base must start with https:// (a public URL reaching POST /v1/telegram/webhooks), without query or fragment',
  })
  webhook_base: string;
}

export class PutTelegramDestinationDto {
  /**
   * The chat: a numeric chat id or a public @username; stored as the numeric id Telegram resolves.
   * @example "-1001234567890"
   */
  @IsText({ max: 40 })
  @Matches(TELEGRAM_CHAT, {
    message: 'address must be a Telegram chat id such as 123456789 or -1001234567890, or a public @username',
  })
  address: string;

  /**
   * Forum topic (message_thread_id) of a forum supergroup; a positive integer or its decimal string.
   * @example 42
   */
  @IsOptional()
  @Matches(/^[1-9]\d{0,18}$/, { message: 'telegram_thread_id must be a positive whole number (the forum topic id)' })
  @Type(() => String)
  telegram_thread_id?: string;
}

export class TelegramLinkDto {
  /**
   * `private` (default): a link that opens a chat with the bot; `group`: one that adds the bot to a group.
   * @example "private"
   */
  @IsOptional()
  @IsIn(['private', 'group'], { message: 'kind must be "private" or "group"' })
  kind?: 'private' | 'group';
}

export class TelegramLookupDto {
  /**
   * The owners whose verified chats to return (at most 100).
   * @example ["user_123", "user_456"]
   */
  @IsArray()
  @ArrayMinSize(1, { message: 'owners must name at least one owner' })
  @ArrayMaxSize(LOOKUP_MAX, { message: `owners may name at most ${LOOKUP_MAX} owners per call` })
  @IsString({ each: true })
  @Matches(OWNER_PATTERN, { each: true, message: `owners must each be ${OWNER_MESSAGE.replace(/^must be /, '')}` })
  owners: string[];
}

export class TelegramBotDto {
  /** The route id sends name in chat.telegram_route_id. @example "0b6f6f1e-3c1a-4d8e-9a57-2f3b1c9d4e21" */
  route_id: string;
  /** @example "acme_alerts_bot" */
  bot_username: string;
  /** @example true */
  owned: boolean;
  /** @example "personal" */
  source: 'personal';
  /** The token's last four characters; the token itself is never returned. @example "…Dsaw" */
  token_hint: string;
  /** @example true */
  webhook_registered: boolean;
  /** Whether POST /v1/telegram/:owner/link can pair a chat. @example true */
  can_link: boolean;
}

export class TelegramDestinationDto {
  /** @example "telegram" */
  channel: 'telegram';
  /** @example "***7890" */
  address_masked: string;
  /** @example true */
  verified: boolean;
  /** @example "2026-11-30T10:00:00.000Z" */
  created_at: string;
  /** @example "42" */
  telegram_thread_id: string | null;
  /** @example "acme_alerts_bot" */
  telegram_bot_username: string | null;
}

export class TelegramOwnerViewDto {
  bot: TelegramBotDto | null;
  destination: TelegramDestinationDto | null;
}

export class TelegramOwnerResponseDto {
  data: TelegramOwnerViewDto;
}

export class TelegramBotResponseDto {
  data: TelegramBotDto;
}

export class TelegramDestinationResponseDto {
  data: TelegramDestinationDto;
}

export class TelegramLinkViewDto {
  /** @example "https://t.me/acme_alerts_bot?start=3f9a0c1e5b7d4a2c8e6f1a3b5c7d9e0f" */
  deep_link: string;
  /** @example "2026-11-30T10:15:00.000Z" */
  expires_at: string;
  /** @example "/start 3f9a0c1e5b7d4a2c8e6f1a3b5c7d9e0f" */
  command: string;
}

export class TelegramLinkResponseDto {
  data: TelegramLinkViewDto;
}

export class TelegramLookupRowDto {
  /** @example "user_123" */
  owner: string;
  /** @example "0b6f6f1e-3c1a-4d8e-9a57-2f3b1c9d4e21" */
  route_id: string;
  /** @example "555000111" */
  address: string;
  /** @example null */
  telegram_thread_id: string | null;
  /** @example "acme_alerts_bot" */
  bot_username: string;
  /** @example true */
  verified: boolean;
}

export class TelegramLookupResponseDto {
  data: TelegramLookupRowDto[];
}

export class TelegramWebhookResponseDto {
  /** @example true */
  ok: true;
  /** Whether this update paired a chat. @example false */
  linked: boolean;
}
