import { type FakeAnswer, ProviderFake, type RecordedRequest } from './provider-fake.js';

export const TELEGRAM_TOKEN = '123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw_test';

export const telegramError = (errorCode: number, description: string, parameters?: Record<string, number>, headers?: Record<string, string>): FakeAnswer => ({
  status: errorCode,
  json: { ok: false, error_code: errorCode, description, ...(parameters ? { parameters } : {}) },
  headers,
});

/**
 * Telegram Bot API `POST /bot{token}/sendMessage` (JSON): `{ok:true, result}` or
 * `{ok:false, error_code, description, parameters?}`. Scripted by chat id; any token in `tokens` is a bot.
 */
export class TelegramFake extends ProviderFake {
  readonly chats = new Map<string, FakeAnswer>();
  /** Bot tokens the fake knows (the instance's; a spec adds a project's own bot). */
  readonly tokens = new Set([TELEGRAM_TOKEN]);
  private sequence = 4000;

  protected answer(request: RecordedRequest): FakeAnswer {
    const match = /^\/bot([^/]+)\/sendMessage$/.exec(request.path);
    if (!match) return telegramError(404, 'Not Found');
    if (!this.tokens.has(match[1])) return telegramError(401, 'Unauthorized');
    const { chat_id: chatId, text } = request.body as { chat_id?: number | string; text?: string };
    if (chatId === undefined || chatId === '') return telegramError(400, 'Bad Request: chat_id is empty');
    if (!text) return telegramError(400, 'Bad Request: message text is empty');
    const scripted = this.chats.get(String(chatId));
    if (scripted) return scripted;
    return {
      status: 200,
      json: { ok: true, result: { message_id: ++this.sequence, chat: { id: chatId, type: 'private' }, date: 1764460800, text } },
    };
  }
}
