import { TELEGRAM_BOT_TOKEN_PATTERN } from '../../config/sections/chat-providers.config.js';
import type { DeliveryResult, OutboundMessage } from '../connector.js';
import { NotifyConnector } from '../connector.decorator.js';
import { postJson } from '../json-http.js';
import { ProviderError } from '../provider-error.js';
import { CHAT_HINTS, canonicalTelegramChat, TELEGRAM_CHAT } from './chat-ids.js';
import { chatLink, chatOptions, chatText } from './chat-text.js';
import { botTokenSettings, withProjectBot } from './project-bot.js';
import { classifyTelegramAnswer } from './telegram/telegram-errors.js';
import { ConfiguredConnector } from '../one-message-connector.js';

/**
 * TELEGRAM_PROVIDER=telegram: Bot API `sendMessage` with TELEGRAM_BOT_TOKEN, plain text (no
 * parse mode, so user text cannot break formatting), link previews off, an inline button to
 * `url` when there is one, and the forum topic from chat.telegram_thread_id.
 */
@NotifyConnector()
export class TelegramConnector extends ConfiguredConnector {
  readonly channel = 'telegram' as const;
  readonly provider = 'telegram';

  /** A project's own bot (per-project providers): it reaches the chats that bot is in, no binding needed. */
  readonly projectSettings = botTokenSettings(TELEGRAM_BOT_TOKEN_PATTERN, 'a bot token from @BotFather (123456:ABC…)');

  validateConfiguration(): void {
    if (!this.config.chat.telegram.botToken)
      throw new Error(
        'TELEGRAM_PROVIDER=telegram: TELEGRAM_BOT_TOKEN is not set; create a bot with @BotFather and copy its token.',
      );
  }

  recipientProblem(address: string): string | undefined {
    return TELEGRAM_CHAT.test(address) ? undefined : `is not ${CHAT_HINTS.telegram}`;
  }

  forProject(s: Readonly<Record<string, string>>): TelegramConnector {
    return new TelegramConnector(withProjectBot(this.config, 'telegram', s));
  }

  /** Every chat of the instance's bot needs a binding: the bot is shared by every project. */
  boundChat(recipient: string): string {
    return canonicalTelegramChat(recipient);
  }

  protected async sendOne(message: OutboundMessage): Promise<DeliveryResult> {
    if (!TELEGRAM_CHAT.test(message.recipient)) {
      return {
        ok: false,
        error: ProviderError.permanent(
          'A Telegram recipient is a chat id (123456789, -1001234567890) or a public @channelusername.',
          { deadRecipient: true },
        ),
      };
    }
    const text = chatText(message);
    if (!text)
      return { ok: false, error: ProviderError.permanent('Nothing to send: give a body, a subject or chat.text.') };
    const options = chatOptions(message);
    const link = chatLink(message);
    const body = {
      chat_id: /^-?\d+$/.test(message.recipient) ? Number(message.recipient) : message.recipient,
      text,
      link_preview_options: { is_disabled: true },
      ...(link ? { reply_markup: { inline_keyboard: [[{ text: options.button ?? 'Open', url: link }]] } } : {}),
      ...(options.telegram_thread_id ? { message_thread_id: Number(options.telegram_thread_id) } : {}),
    };
    const { botToken, apiBase } = this.config.chat.telegram;
    try {
      // The token is part of the path (Bot API convention): postJson never puts the URL in an error.
      const answer = await postJson(`${apiBase}/bot${botToken}/sendMessage`, body, {
        timeoutMs: this.config.outbound.timeoutMs,
        what: 'telegram',
      });
      const parsed = answer.json as { ok?: boolean; result?: { message_id?: unknown } } | undefined;
      if (answer.status === 200 && parsed?.ok === true) {
        const id = parsed.result?.message_id;
        return { ok: true, providerMessageId: typeof id === 'number' || typeof id === 'string' ? String(id) : null };
      }
      return { ok: false, error: classifyTelegramAnswer(answer) };
    } catch (err) {
      if (err instanceof ProviderError) return { ok: false, error: err };
      throw err;
    }
  }
}
