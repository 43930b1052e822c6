import { type FakeAnswer, ProviderFake, type RecordedRequest } from './provider-fake.js';

export const TELEGRAM_TOKEN = '123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw_test';

export const telegramError = (
  errorCode: number,
  description: string,
  parameters?: Record<string, number>,
  headers?: Record<string, string>,
): FakeAnswer => ({
  status: errorCode,
  json: { ok: false, error_code: errorCode, description, ...(parameters ? { parameters } : {}) },
  headers,
});

const ok = (result: unknown): FakeAnswer => ({ status: 200, json: { ok: true, result } });

/** A bot the fake knows: what getMe answers and where its webhook points (setWebhook's url and secret_token). */
export interface FakeBot {
  id: number;
  username: string;
  webhook: { url: string; secretToken?: string; allowedUpdates?: unknown };
}

/** A chat as getChat answers it. */
export interface FakeChat {
  id: number;
  type: 'private' | 'group' | 'supergroup' | 'channel';
  is_forum?: boolean;
}

/**
 * Telegram Bot API `POST /bot{token}/<method>` (JSON): `{ok:true, result}` or
 * `{ok:false, error_code, description, parameters?}`. sendMessage is scripted by chat id
 * (`chats`); getMe, getWebhookInfo, setWebhook and deleteWebhook act on the bot of the token
 * (`bots`, or `tokens` for bots known only to send); getChat reads `chatInfo` by id or
 * @username. `methods` scripts any method's answer for every bot (e.g. a failing setWebhook).
 */
export class TelegramFake extends ProviderFake {
  readonly chats = new Map<string, FakeAnswer>();
  /** Bot tokens the fake knows (the instance's; a spec adds a project's own bot). */
  readonly tokens = new Set([TELEGRAM_TOKEN]);
  readonly bots = new Map<string, FakeBot>();
  readonly chatInfo = new Map<string, FakeChat>();
  readonly methods = new Map<string, FakeAnswer>();
  private sequence = 4000;

  /** A user's bot made with @BotFather: known to every method. */
  addBot(token: string, username: string): FakeBot {
    const bot: FakeBot = { id: Number(token.split(':')[0]), username, webhook: { url: '' } };
    this.bots.set(token, bot);
    this.tokens.add(token);
    return bot;
  }

  /** The sendMessage requests made with this bot token. */
  sentWith(token: string): RecordedRequest[] {
    return this.requests.filter((r) => r.path === `/bot${token}/sendMessage`);
  }

  protected answer(request: RecordedRequest): FakeAnswer {
    const match = /^\/bot([^/]+)\/([A-Za-z]+)$/.exec(request.path);
    if (!match) return telegramError(404, 'Not Found');
    const [, token, method] = match;
    if (!this.tokens.has(token)) return telegramError(401, 'Unauthorized');
    const scripted = this.methods.get(method);
    if (scripted) return scripted;
    const bot = this.bots.get(token) ?? {
      id: Number(token.split(':')[0]),
      username: 'instance_bot',
      webhook: { url: '' },
    };
    const body = request.body as Record<string, unknown>;
    switch (method) {
      case 'sendMessage':
        return this.sendMessage(body);
      case 'getMe':
        return ok({ id: bot.id, is_bot: true, first_name: bot.username, username: bot.username });
      case 'getWebhookInfo':
        return ok({ url: bot.webhook.url, has_custom_certificate: false, pending_update_count: 0 });
      case 'setWebhook': {
        if (typeof body.url !== 'string' || !body.url.startsWith('https://'))
          return telegramError(400, 'Bad Request: bad webhook: An HTTPS URL must be provided for webhook');
        bot.webhook = {
          url: body.url,
          secretToken: body.secret_token as string | undefined,
          allowedUpdates: body.allowed_updates,
        };
        return ok(true);
      }
      case 'deleteWebhook':
        bot.webhook = { url: '' };
        return ok(true);
      case 'getChat': {
        const chat = this.chatInfo.get(String(body.chat_id));
        return chat ? ok(chat) : telegramError(400, 'Bad Request: chat not found');
      }
      default:
        return telegramError(404, 'Not Found');
    }
  }

  private sendMessage(body: Record<string, unknown>): FakeAnswer {
    const { chat_id: chatId, text } = body as { chat_id?: number | string; text?: string };
    if (chatId === undefined || chatId === '') return telegramError(400, 'Bad Request: chat_id is empty');
    if (!text) return telegramError(400, 'Bad Request: message text is empty');
    const scripted = this.chats.get(String(chatId));
    if (scripted) return scripted;
    return ok({ message_id: ++this.sequence, chat: { id: chatId, type: 'private' }, date: 1764460800, text });
  }
}
