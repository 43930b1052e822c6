import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { ApiError } from '../common/errors/api-error.js';
import type { LinkKind } from './telegram-route.types.js';
import { TelegramRoutesRepository } from './telegram-routes.repository.js';
import { TelegramRoutesService } from './telegram-routes.service.js';
import { RouteSecrets } from './route-secrets.js';
import { isUuid } from '../domain/ids.js';

/** A link token lives 15 minutes (notifyd 0.x); a new one may be made once a minute per owner. */
export const LINK_TTL_SECONDS = 15 * 60;
export const LINK_MIN_GAP_MS = 60_000;

/** `/start <token>` or `/start@bot <token>`, as Telegram sends a deep link's start parameter. */
const START = /^\/start(?:@([A-Za-z0-9_]{3,64}))?\s+([0-9a-f]{32})\s*$/;

interface TelegramUpdate {
  message?: {
    text?: unknown;
    message_thread_id?: unknown;
    chat?: { id?: unknown; type?: unknown; is_forum?: unknown };
  };
}

/**
 * Pairing a chat by starting the bot: a one-time token (32 hex digits, stored as its SHA-256)
 * goes into a t.me deep link; when the user starts the bot, Telegram posts `/start <token>` to
 * the bot's webhook, which must carry the secret notifyd gave setWebhook
 * (X-Telegram-Bot-Api-Secret-Token). A valid, unexpired token is used once and the chat it came
 * from becomes the owner's verified chat.
 */
@Injectable()
export class TelegramLinksService {
  private readonly logger = new Logger(TelegramLinksService.name);

  constructor(
    private readonly repository: TelegramRoutesRepository,
    private readonly routes: TelegramRoutesService,
    private readonly secrets: RouteSecrets,
  ) {}

  async link(
    projectId: string,
    owner: string,
    kind: LinkKind,
  ): Promise<{ deep_link: string; expires_at: string; command: string } | { retryAfterMs: number }> {
    const bot = await this.routes.requireBot(projectId, owner);
    if (!bot.webhookRegistered)
      throw ApiError.conflict(
        'webhook_not_registered',
        `The owner's bot has no webhook to notifyd; set it again with PUT /v1/telegram/${owner}.`,
      );
    const token = randomBytes(16).toString('hex');
    const made = await this.repository.newLinkToken(bot, kind, sha256(token), LINK_TTL_SECONDS, LINK_MIN_GAP_MS);
    if ('waitMs' in made) return { retryAfterMs: made.waitMs };
    return {
      deep_link: `https://t.me/${bot.botUsername}?${kind === 'group' ? 'startgroup' : 'start'}=${token}`,
      expires_at: new Date(made.expiresAt).toISOString(),
      command: kind === 'group' ? `/start@${bot.botUsername} ${token}` : `/start ${token}`,
    };
  }

  /** An update from Telegram for one bot: authenticated by its secret header, then a /start pairs the chat; anything else is acknowledged. */
  async receive(
    connectionId: string,
    secretHeader: string | undefined,
    update: unknown,
  ): Promise<{ ok: true; linked: boolean }> {
    const bot = isUuid(connectionId) ? await this.repository.credentialByConnection(connectionId) : undefined;
    if (!bot) throw ApiError.notFound('Telegram webhook', connectionId);
    this.secrets.require();
    let secret: string;
    try {
      secret = this.secrets.open(bot.projectId, bot.owner, 'webhook_secret', bot.webhookSecretSealed);
    } catch (err) {
      this.logger.error(`telegram route ${bot.id}: webhook secret unreadable: ${(err as Error).message}`);
      throw ApiError.unavailable(
        'secret_unreadable',
        'This webhook cannot be checked with the configured keys; the owner sets the bot again.',
      );
    }
    if (!secretHeader || !sameSecret(secretHeader, secret)) {
      throw ApiError.unauthorized(
        'X-Telegram-Bot-Api-Secret-Token is missing or wrong: Telegram sends the secret_token notifyd gave setWebhook.',
      );
    }
    const message = (update as TelegramUpdate | null)?.message;
    const chat = message?.chat;
    const start = typeof message?.text === 'string' ? START.exec(message.text.trim()) : null;
    if (!start || !chat || (typeof chat.id !== 'number' && typeof chat.id !== 'string'))
      return { ok: true, linked: false };
    // `/start@otherbot …` in a group is addressed to another bot.
    if (start[1] && start[1].toLowerCase() !== bot.botUsername.toLowerCase()) return { ok: true, linked: false };
    const used = await this.repository.consumeLinkToken(sha256(start[2]), bot.id);
    if (!used) return { ok: true, linked: false };
    const thread =
      chat.is_forum === true && typeof message?.message_thread_id === 'number' && message.message_thread_id > 0
        ? String(message.message_thread_id)
        : null;
    await this.repository.upsertDestination({
      projectId: bot.projectId,
      owner: bot.owner,
      credentialId: bot.id,
      address: String(chat.id),
      threadId: thread,
      verified: true,
    });
    return { ok: true, linked: true };
  }
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
