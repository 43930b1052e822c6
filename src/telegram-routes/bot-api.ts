import { postJson } from '../connectors/json-http.js';

/** A Bot API call that Telegram refused (`ok:false`), or that never got an answer (status 0). */
export class BotApiError extends Error {
  constructor(
    readonly method: string,
    readonly status: number,
    readonly description: string,
  ) {
    super(`telegram ${method}: ${status ? `${status} ` : ''}${description}`);
  }
}

export interface BotIdentity {
  id: number;
  username: string;
}

export interface ChatInfo {
  id: number;
  type: string;
  isForum: boolean;
}

/**
 * The Bot API methods the per-user bots need besides sendMessage (which the Telegram chat
 * connector sends): getMe, getWebhookInfo, setWebhook, deleteWebhook, getChat. The token is in
 * the path (Bot API convention) and never in an error: postJson never puts the URL in one.
 */
export class BotApi {
  constructor(
    private readonly apiBase: string,
    private readonly token: string,
    private readonly timeoutMs: number,
  ) {}

  async getMe(): Promise<BotIdentity> {
    const me = (await this.call('getMe', {})) as { id?: unknown; username?: unknown };
    if (typeof me.id !== 'number' || typeof me.username !== 'string')
      throw new BotApiError('getMe', 200, 'answer without id and username');
    return { id: me.id, username: me.username };
  }

  /** The URL the bot's updates go to now ('' when none). */
  async webhookUrl(): Promise<string> {
    const info = (await this.call('getWebhookInfo', {})) as { url?: unknown };
    return typeof info.url === 'string' ? info.url : '';
  }

  async setWebhook(url: string, secretToken: string): Promise<void> {
    await this.call('setWebhook', { url, secret_token: secretToken, allowed_updates: ['message'] });
  }

  async deleteWebhook(): Promise<void> {
    await this.call('deleteWebhook', {});
  }

  async getChat(chat: string): Promise<ChatInfo> {
    const info = (await this.call('getChat', { chat_id: /^-?\d+$/.test(chat) ? Number(chat) : chat })) as {
      id?: unknown;
      type?: unknown;
      is_forum?: unknown;
    };
    if (typeof info.id !== 'number') throw new BotApiError('getChat', 200, 'answer without a chat id');
    return { id: info.id, type: String(info.type ?? ''), isForum: info.is_forum === true };
  }

  private async call(method: string, body: Record<string, unknown>): Promise<unknown> {
    let answer;
    try {
      answer = await postJson(`${this.apiBase}/bot${this.token}/${method}`, body, {
        timeoutMs: this.timeoutMs,
        what: `telegram ${method}`,
      });
    } catch (err) {
      throw new BotApiError(method, 0, (err as Error).message);
    }
    const parsed = answer.json as
      { ok?: boolean; result?: unknown; error_code?: number; description?: string } | undefined;
    if (answer.status === 200 && parsed?.ok === true) return parsed.result ?? {};
    throw new BotApiError(
      method,
      parsed?.error_code ?? answer.status,
      (parsed?.description ?? answer.text.slice(0, 200)) || `HTTP ${answer.status}`,
    );
  }
}
