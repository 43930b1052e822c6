import { Inject } from '@nestjs/common';
import type { AppConfig } from '../../config/app-config.js';
import { APP_CONFIG } from '../../config/config.module.js';
import { SLACK_BOT_TOKEN_PATTERN } from '../../config/sections/chat-providers.config.js';
import type { DeliveryResult, OutboundMessage } from '../connector.js';
import { NotifyConnector } from '../connector.decorator.js';
import { type Fetcher, postJson } from '../json-http.js';
import { ProviderError } from '../provider-error.js';
import { OutboundGuard } from '../../common/ssrf/outbound-guard.js';
import { canonicalSlackChannel } from './chat-ids.js';
import { chatLink, chatOptions, chatText, providerWebhookUrl } from './chat-text.js';
import { botTokenSettings, withProjectBot } from './project-bot.js';
import { classifySlackAnswer } from './slack/slack-errors.js';
import { ConfiguredConnector } from '../one-message-connector.js';

/**
 * SLACK_PROVIDER=slack. A recipient that is an incoming-webhook URL (on SLACK_WEBHOOK_HOSTS)
 * gets `{text}` POSTed through the SSRF guard; any other recipient is a channel id for
 * `chat.postMessage` with SLACK_BOT_TOKEN. Text is Slack mrkdwn: *subject*, body, <url|Open>.
 */
@NotifyConnector()
export class SlackConnector extends ConfiguredConnector {
  readonly channel = 'slack' as const;
  readonly provider = 'slack';

  /** A project's own Slack app (per-project providers): its bot reaches its own workspace, no binding needed. */
  readonly projectSettings = botTokenSettings(SLACK_BOT_TOKEN_PATTERN, 'a Slack bot token (xoxb-…)');

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly guard: OutboundGuard,
  ) {
    super(config);
  }

  recipientProblem(address: string): string | undefined {
    if (!/^https?:\/\//i.test(address)) return undefined;
    return providerWebhookUrl(address, this.config.chat.slack.webhookHosts)
      ? undefined
      : `is not a Slack incoming-webhook URL: its host must be one of ${this.config.chat.slack.webhookHosts.join(', ')} (SLACK_WEBHOOK_HOSTS)`;
  }

  forProject(s: Readonly<Record<string, string>>): SlackConnector {
    return new SlackConnector(withProjectBot(this.config, 'slack', s), this.guard);
  }

  /**
   * A channel id is reached with SLACK_BOT_TOKEN, which every project shares: it needs a
   * binding. An incoming-webhook URL is the workspace owner's own capability: it needs none.
   */
  boundChat(recipient: string): string | undefined {
    return isUrl(recipient) ? undefined : canonicalSlackChannel(recipient);
  }

  protected async sendOne(message: OutboundMessage): Promise<DeliveryResult> {
    const text = slackText(message);
    if (!text)
      return { ok: false, error: ProviderError.permanent('Nothing to send: give a body, a subject or chat.text.') };
    try {
      if (isUrl(message.recipient)) return await this.viaWebhook(message.recipient, text);
      return await this.viaApi(message.recipient, text);
    } catch (err) {
      if (err instanceof ProviderError) return { ok: false, error: err };
      throw err;
    }
  }

  private async viaWebhook(recipient: string, text: string): Promise<DeliveryResult> {
    const url = providerWebhookUrl(recipient, this.config.chat.slack.webhookHosts);
    if (!url) {
      const hosts = this.config.chat.slack.webhookHosts.join(', ');
      return {
        ok: false,
        error: ProviderError.permanent(
          `Not a Slack incoming-webhook URL: its host must be one of ${hosts} (SLACK_WEBHOOK_HOSTS).`,
          { deadRecipient: true },
        ),
      };
    }
    const fetcher: Fetcher = (u, init) => this.guard.fetch(u, init);
    const answer = await postJson(
      url.href,
      { text },
      { timeoutMs: this.config.outbound.timeoutMs, fetcher, what: 'slack webhook' },
    );
    // Incoming webhooks answer 200 "ok", and refusals as plain text such as "channel_not_found".
    if (answer.status === 200) return { ok: true, providerMessageId: null };
    return { ok: false, error: classifySlackAnswer(answer, answer.text) };
  }

  private async viaApi(channel: string, text: string): Promise<DeliveryResult> {
    const { botToken, apiBase } = this.config.chat.slack;
    if (!botToken) {
      return {
        ok: false,
        error: ProviderError.permanent(
          `'${channel.slice(0, 40)}' is a channel id, which needs SLACK_BOT_TOKEN (or give an incoming-webhook URL).`,
        ),
      };
    }
    const answer = await postJson(
      `${apiBase}/chat.postMessage`,
      { channel, text, unfurl_links: false },
      { headers: { authorization: `Bearer ${botToken}` }, timeoutMs: this.config.outbound.timeoutMs, what: 'slack' },
    );
    const body = answer.json as { ok?: boolean; ts?: unknown; error?: string } | undefined;
    if (answer.status === 200 && body?.ok === true)
      return { ok: true, providerMessageId: typeof body.ts === 'string' ? body.ts : null };
    return { ok: false, error: classifySlackAnswer(answer, body?.error) };
  }
}

/** Incoming-webhook recipients are URLs; anything else is a channel for chat.postMessage. */
const isUrl = (recipient: string) => /^https?:\/\//i.test(recipient);

/** Slack mrkdwn: `chat.text` as is, else *subject*, the body and an <url|Open> link. */
function slackText(message: OutboundMessage): string | undefined {
  if (chatOptions(message).text) return chatText(message);
  const parts = [
    message.subject ? `*${escapeMrkdwn(message.subject)}*` : undefined,
    message.body ? escapeMrkdwn(message.body) : undefined,
    chatLink(message) ? `<${chatLink(message)}|${chatOptions(message).button ?? 'Open'}>` : undefined,
  ];
  const text = parts.filter(Boolean).join('\n');
  return text || undefined;
}

/** Slack's three control characters: unescaped, `<!channel>` in a body would ping everyone. */
function escapeMrkdwn(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
