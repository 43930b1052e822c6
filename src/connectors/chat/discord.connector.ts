import { Inject } from '@nestjs/common';
import type { AppConfig } from '../../config/app-config.js';
import { APP_CONFIG } from '../../config/config.module.js';
import type { DeliveryResult, OutboundMessage } from '../connector.js';
import { NotifyConnector } from '../connector.decorator.js';
import { type Fetcher, postJson } from '../json-http.js';
import { ProviderError } from '../provider-error.js';
import { OutboundGuard } from '../../common/ssrf/outbound-guard.js';
import { chatLink, chatOptions, providerWebhookUrl } from './chat-text.js';
import { classifyDiscordAnswer } from './discord/discord-errors.js';
import { ConfiguredConnector } from '../one-message-connector.js';

/** Discord's own limits: embed title 256, description 4096, content 2000 characters. */
const TITLE_MAX = 256;
const DESCRIPTION_MAX = 4096;
const CONTENT_MAX = 2000;

/**
 * DISCORD_PROVIDER=discord: executes the webhook the recipient names (a URL on
 * DISCORD_WEBHOOK_HOSTS under /api/webhooks/), through the SSRF guard, with `?wait=true` so
 * that Discord answers with the message (its id) or a real error. An embed {title,
 * description, url}, or `content` when chat.text is given. Mentions are never parsed: a body
 * containing @everyone must not ping a server.
 */
@NotifyConnector()
export class DiscordConnector extends ConfiguredConnector {
  readonly channel = 'discord' as const;
  readonly provider = 'discord';

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly guard: OutboundGuard,
  ) {
    super(config);
  }

  recipientProblem(address: string): string | undefined {
    if (providerWebhookUrl(address, this.config.chat.discord.webhookHosts, '/api/webhooks/')) return undefined;
    return `is not a Discord webhook URL (https://discord.com/api/webhooks/<id>/<token>; hosts: ${this.config.chat.discord.webhookHosts.join(', ')}, DISCORD_WEBHOOK_HOSTS)`;
  }

  protected async sendOne(message: OutboundMessage): Promise<DeliveryResult> {
    const url = providerWebhookUrl(message.recipient, this.config.chat.discord.webhookHosts, '/api/webhooks/');
    if (!url) {
      return {
        ok: false,
        error: ProviderError.permanent(
          `Not a Discord webhook URL: it must be https://discord.com/api/webhooks/<id>/<token> (hosts: ${this.config.chat.discord.webhookHosts.join(', ')}, DISCORD_WEBHOOK_HOSTS).`,
          { deadRecipient: true },
        ),
      };
    }
    const body = discordBody(message);
    if (!body)
      return { ok: false, error: ProviderError.permanent('Nothing to send: give a body, a subject or chat.text.') };
    url.searchParams.set('wait', 'true');
    const fetcher: Fetcher = (u, init) => this.guard.fetch(u, init);
    try {
      const answer = await postJson(
        url.href,
        { ...body, allowed_mentions: { parse: [] } },
        { timeoutMs: this.config.outbound.timeoutMs, fetcher, what: 'discord' },
      );
      if (answer.status >= 200 && answer.status < 300) {
        const id = (answer.json as { id?: unknown } | undefined)?.id;
        return { ok: true, providerMessageId: typeof id === 'string' ? id : null };
      }
      return { ok: false, error: classifyDiscordAnswer(answer) };
    } catch (err) {
      if (err instanceof ProviderError) return { ok: false, error: err };
      throw err;
    }
  }
}

function discordBody(message: OutboundMessage): Record<string, unknown> | undefined {
  const own = chatOptions(message).text;
  if (own) return { content: clip(own, CONTENT_MAX) };
  if (!message.subject && !message.body) return undefined;
  const link = chatLink(message);
  const embed = {
    ...(message.subject ? { title: clip(message.subject, TITLE_MAX) } : {}),
    ...(message.body ? { description: clip(message.body, DESCRIPTION_MAX) } : {}),
    ...(link ? { url: link } : {}),
  };
  return { embeds: [embed] };
}

const clip = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);
