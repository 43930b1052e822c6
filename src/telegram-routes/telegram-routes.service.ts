import { randomBytes, randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { AuditService } from '../audit/audit.service.js';
import { ApiError } from '../common/errors/api-error.js';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import { maskSecret } from '../project-providers/project-settings.js';
import { ProjectProvidersService } from '../project-providers/project-providers.service.js';
import { resealInPages, type ResealResult } from '../project-providers/reseal-pages.js';
import { BotApi, BotApiError } from './bot-api.js';
import { presentBot, presentDestination } from './telegram-route.presenter.js';
import type { CredentialRow, RouteForSend } from './telegram-route.types.js';
import { TelegramRoutesRepository } from './telegram-routes.repository.js';
import { RouteSecrets } from './route-secrets.js';
import { isUuid } from '../domain/ids.js';

type Caller = { projectId: string; ip?: string };

/**
 * An owner's own Telegram bot and the chat it delivers to (notifyd 0.x §2.15): the token is
 * checked with getMe, the bot's webhook pointed at notifyd (so that a user can pair a chat by
 * starting the bot), and the chat checked with getChat. Tokens are sealed at rest and never
 * returned or logged; Telegram's refusals are reported with its description, never the token.
 */
@Injectable()
export class TelegramRoutesService implements OnModuleInit {
  private readonly logger = new Logger(TelegramRoutesService.name);

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly repository: TelegramRoutesRepository,
    private readonly secrets: RouteSecrets,
    private readonly audit: AuditService,
    private readonly providers: ProjectProvidersService,
  ) {}

  onModuleInit(): void {
    // POST /v1/admin/project-providers/reseal re-seals these tokens too (one key rotation).
    this.providers.addResealer(() => this.reseal());
  }

  /** Key rotation: every bot sealed with another key than the current one, sealed again. */
  async reseal(): Promise<ResealResult> {
    const keyId = this.secrets.keyId;
    return resealInPages<SealedBot>({
      page: (last, size) =>
        this.repository.sealedWithOtherKeys(keyId, last?.id ?? '00000000-0000-0000-0000-000000000000', size),
      reseal: (row) => {
        const token = this.secrets.seal(
          row.projectId,
          row.owner,
          'bot_token',
          this.secrets.open(row.projectId, row.owner, 'bot_token', row.botTokenSealed),
        );
        const secret = this.secrets.seal(
          row.projectId,
          row.owner,
          'webhook_secret',
          this.secrets.open(row.projectId, row.owner, 'webhook_secret', row.webhookSecretSealed),
        );
        return this.repository.reseal(row.id, row.keyId, token, secret, keyId);
      },
      name: (row) => `telegram/${row.projectId}/${row.owner}`,
    });
  }

  async view(projectId: string, owner: string) {
    const bot = await this.repository.credential(projectId, owner);
    const destination = bot ? await this.repository.destination(projectId, owner) : undefined;
    return {
      bot: bot ? presentBot(bot) : null,
      destination: destination ? presentDestination(destination, bot!.botUsername) : null,
    };
  }

  async putBot(caller: Caller, owner: string, botToken: string, webhookBase: string) {
    this.secrets.require();
    if (botToken === this.config.chat.telegram.botToken) {
      throw ApiError.unprocessable(
        'validation_failed',
        "bot_token is the instance's own bot (TELEGRAM_BOT_TOKEN); give the owner's own bot, created with @BotFather.",
        { details: ['bot_token is the instance bot'] },
      );
    }
    const api = this.api(botToken);
    const me = await api.getMe().catch((err) => {
      throw refusal(
        err,
        'bot_token',
        'the token was not accepted by Telegram; copy it again from @BotFather (123456:ABC…)',
      );
    });
    const existing = await this.repository.credential(caller.projectId, owner);
    const current = await api.webhookUrl().catch((err) => {
      throw refusal(err);
    });
    const base = webhookBase.replace(/\/+$/, '');
    if (current && !(existing && current.endsWith(existing.connectionId)) && !(await this.dangling(current, base))) {
      throw ApiError.conflict(
        'webhook_in_use',
        `The bot @${me.username} already delivers its updates to another webhook (not this owner's notifyd route); a bot has one webhook. Use another bot, or remove that webhook first (Bot API deleteWebhook).`,
      );
    }
    const botChanged = existing !== undefined && existing.botId !== String(me.id);
    // The chat the upsert drops with another bot, to bring back if Telegram refuses the webhook.
    const previousDestination = botChanged ? await this.repository.destination(caller.projectId, owner) : undefined;

    // The order keeps Telegram's webhook on a connection id notifyd knows, or one a PUT can take
    // back: the new connection is stored first (webhook_registered false), setWebhook moves the
    // bot to it, and only then is it marked registered and the replaced bot's webhook dropped.
    //  - The store fails: Telegram was not called; nothing changed.
    //  - setWebhook refused (Telegram answered 4xx): the previous row (and the chat another bot
    //    dropped) is put back, or the new one deleted, before the 502. Telegram still points
    //    where it did, at a connection notifyd knows again.
    //  - setWebhook unanswered (timeout, 5xx): getWebhookInfo says whether it took; if that is
    //    unanswered too, the new row stays unregistered (can_link false) and the 502 says to PUT again.
    //  - The process dies between the store and setWebhook (or the undo fails): the row holds
    //    the new connection, unregistered (GET shows webhook_registered false, link is 409),
    //    while Telegram still posts to the old one, answered 404, which Telegram retries for a
    //    while. The owner PUTs again: the old URL is this notifyd's with a connection id no
    //    route holds (dangling, below), so it is not a foreign webhook, and setWebhook moves it.
    //  - It dies after setWebhook, before the mark: Telegram posts to the stored connection,
    //    which pairs chats already; links wait for the next PUT, which finds its own webhook.
    // Had setWebhook come first, a failed store left Telegram on a connection id no row holds
    // and the owner's next PUT refused it as a foreign webhook (409).
    const connectionId = randomUUID();
    const webhookSecret = randomBytes(32).toString('hex');
    const stored = await this.repository.upsertCredential({
      projectId: caller.projectId,
      owner,
      botId: me.id,
      botUsername: me.username,
      botTokenSealed: this.secrets.seal(caller.projectId, owner, 'bot_token', botToken),
      tokenHint: maskSecret(botToken),
      connectionId,
      webhookSecretSealed: this.secrets.seal(caller.projectId, owner, 'webhook_secret', webhookSecret),
      keyId: this.secrets.keyId,
    });
    const url = `${base}/${connectionId}`;
    const set = await api.setWebhook(url, webhookSecret).then(
      () => 'set' as const,
      async (err: BotApiError) => {
        if (err.status > 0 && err.status < 500) return err;
        // No answer, or a 5xx: Telegram may have taken it. Ask where the bot's updates go now.
        const now = await api.webhookUrl().catch(() => undefined);
        return now === url ? ('set' as const) : now === undefined ? ('unknown' as const) : err;
      },
    );
    if (set === 'unknown') {
      throw new ApiError(
        502,
        'webhook_not_set',
        'Telegram did not answer setWebhook and whether it took is unknown; PUT the bot again (until then it cannot link chats: webhook_registered is false).',
      );
    }
    if (set !== 'set') {
      await this.repository.undoPut(stored, existing, previousDestination).catch((err: Error) => {
        // The row stays unregistered with a connection Telegram does not post to: the next PUT repairs it.
        this.logger.error(
          `telegram route ${stored.id}: setWebhook refused and the previous row not restored: ${err.message}`,
        );
      });
      throw new ApiError(
        502,
        'webhook_not_set',
        `Telegram refused to set the bot's webhook (${set.description}); check webhook_base (a public https URL that reaches POST /v1/telegram/webhooks).`,
      );
    }
    // undefined: a later PUT of the same owner moved the row on meanwhile; answer with what this one stored.
    const row = (await this.repository.markWebhookRegistered(stored.id, connectionId)) ?? stored;
    if (botChanged) await this.dropWebhook(existing, 'bot replaced');
    await this.audit.record({
      projectId: caller.projectId,
      actor: 'api_key',
      ip: caller.ip,
      action: 'telegram_route.set',
      resource: owner,
      metadata: { route_id: row.id, bot_username: row.botUsername },
    });
    return presentBot(row);
  }

  async deleteBot(caller: Caller, owner: string): Promise<void> {
    const row = await this.repository.credential(caller.projectId, owner);
    if (!row) throw ApiError.notFound('Telegram bot of owner', owner);
    await this.dropWebhook(row, 'bot removed');
    await this.repository.deleteCredential(row);
    await this.audit.record({
      projectId: caller.projectId,
      actor: 'api_key',
      ip: caller.ip,
      action: 'telegram_route.deleted',
      resource: owner,
      metadata: { route_id: row.id },
    });
  }

  async putDestination(projectId: string, owner: string, address: string, threadId: string | undefined) {
    this.secrets.require();
    const bot = await this.requireBot(projectId, owner);
    const chat = await this.api(this.token(bot))
      .getChat(address)
      .catch((err) => {
        throw refusal(
          err,
          'address',
          'the bot cannot see that chat: a user must start the bot first, a group or channel must have the bot as a member',
        );
      });
    if (threadId !== undefined && !(chat.type === 'supergroup' && chat.isForum)) {
      throw ApiError.unprocessable(
        'validation_failed',
        `telegram_thread_id: chat ${chat.id} is a ${chat.type || 'chat'} without topics; a topic id is only for a forum supergroup. Leave it out.`,
        {
          details: ['telegram_thread_id is only for forum supergroups'],
        },
      );
    }
    const row = await this.repository.upsertDestination({
      projectId,
      owner,
      credentialId: bot.id,
      address: String(chat.id),
      threadId: threadId ?? null,
      verified: true,
    });
    return presentDestination(row, bot.botUsername);
  }

  async deleteDestination(projectId: string, owner: string): Promise<void> {
    await this.repository.deleteDestination(projectId, owner);
  }

  async lookup(projectId: string, owners: readonly string[]) {
    const rows = await this.repository.lookup(projectId, [...new Set(owners)]);
    return rows.map((r) => ({
      owner: r.owner,
      route_id: r.routeId,
      address: r.address,
      telegram_thread_id: r.threadId,
      bot_username: r.botUsername,
      verified: r.verified,
    }));
  }

  /** The route a send names, if it is this project's (admission's check; the worker reads it again). */
  async routeForSend(projectId: string, routeId: string): Promise<RouteForSend | undefined> {
    return (await this.repository.routesForSend([{ routeId, projectId }]))[0];
  }

  async requireBot(projectId: string, owner: string): Promise<CredentialRow> {
    const bot = await this.repository.credential(projectId, owner);
    if (!bot) throw ApiError.notFound('Telegram bot of owner', owner);
    return bot;
  }

  private token(bot: CredentialRow): string {
    try {
      return this.secrets.open(bot.projectId, bot.owner, 'bot_token', bot.botTokenSealed);
    } catch (err) {
      throw ApiError.unavailable(
        'secret_unreadable',
        `The owner's bot token cannot be read with the configured keys (${(err as Error).message}); set the bot again with PUT /v1/telegram/${bot.owner}.`,
      );
    }
  }

  /**
   * A webhook URL of this notifyd (under webhook_base) whose connection id no route holds: left by
   * a PUT that died between storing its connection and setWebhook, so the owner may take it back.
   * Another route's webhook (a bot set up for another owner or project) is not dangling.
   */
  private async dangling(url: string, base: string): Promise<boolean> {
    if (!url.startsWith(`${base}/`)) return false;
    const id = url.slice(base.length + 1);
    return isUuid(id) && !(await this.repository.credentialByConnection(id));
  }

  /** Best effort: the bot stops sending its updates to notifyd (a failure is logged, not raised). */
  private async dropWebhook(bot: CredentialRow, why: string): Promise<void> {
    try {
      await this.api(this.secrets.open(bot.projectId, bot.owner, 'bot_token', bot.botTokenSealed)).deleteWebhook();
    } catch (err) {
      this.logger.warn(`telegram route ${bot.id} (${why}): webhook not removed: ${(err as Error).message}`);
    }
  }

  private api(token: string): BotApi {
    return new BotApi(this.config.chat.telegram.apiBase, token, this.config.outbound.timeoutMs);
  }
}

/** A bot as the key rotation reads it: its sealed secrets and the key that sealed them. */
type SealedBot = Pick<CredentialRow, 'id' | 'projectId' | 'owner' | 'botTokenSealed' | 'webhookSecretSealed' | 'keyId'>;

/** Telegram's refusal as an API error: its 4xx names the field and the fix; no answer or a 5xx is a 502. */
function refusal(err: unknown, field?: string, fix?: string): ApiError {
  if (!(err instanceof BotApiError)) return err as ApiError;
  if (err.status === 0 || err.status >= 500 || !field) {
    return new ApiError(
      502,
      'telegram_unavailable',
      `Telegram did not answer ${err.method} (${err.description}); try again.`,
    );
  }
  return ApiError.badRequest(
    field === 'bot_token' ? 'invalid_bot_token' : 'invalid_chat',
    `${field}: Telegram answered ${err.status} ${err.description}: ${fix}.`,
    { field },
  );
}
