import { ArrayMaxSize, IsArray, IsString, MaxLength } from 'class-validator';

/** Most chats one channel of a project may be bound to (one PUT replaces them all). */
export const CHAT_BINDINGS_MAX = 1000;

export class PutChatBindingsDto {
  /**
   * Every chat the project may reach on this channel through the instance's bot; replaces the
   * channel's current list ([] removes them all). Telegram: chat ids or public @channelusernames;
   * Slack: channel ids (C0123ABCD) or #channel-names.
   * @example ["-1001234567890", "@acme_ops"]
   */
  @IsArray()
  @ArrayMaxSize(CHAT_BINDINGS_MAX, { message: `chats may hold at most ${CHAT_BINDINGS_MAX} chats per channel` })
  @IsString({ each: true })
  @MaxLength(100, { each: true })
  chats: string[];
}

export class ChatBindingsOfChannelDto {
  /** @example "acme" */
  project_id: string;
  /** @example "telegram" */
  channel: string;
  /**
   * The chats now bound, as stored: Telegram ids without leading zeros, @usernames lower-cased.
   * @example ["-1001234567890", "@acme_ops"]
   */
  chats: string[];
}

export class ChatBindingDto {
  /** @example "telegram" */
  channel: string;
  /** @example "-1001234567890" */
  chat: string;
  /** @example "2026-11-30T10:00:00.000Z" */
  created_at: string;
}

export class ChatBindingListDto {
  /** @example "acme" */
  project_id: string;
  /**
   * Whether the instance enforces bindings (CHAT_BINDINGS_REQUIRED); when false every project
   * reaches every chat the instance's bots can.
   * @example true
   */
  required: boolean;
  bindings: ChatBindingDto[];
}

export class DeletedChatBindingsDto {
  /** @example true */
  success: boolean;
  /** How many chats were unbound. @example 2 */
  removed: number;
}
