import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { ApiError } from '../../common/errors/api-error.js';
import type { AppConfig } from '../../config/app-config.js';
import { APP_CONFIG } from '../../config/config.module.js';
import type { DigestTarget } from '../../config/sections/digest.config.js';
import { ConnectorRegistry } from '../../connectors/connector-registry.js';
import { OutboundGuard } from '../../common/ssrf/outbound-guard.js';
import { UnsafeUrlError } from '../../common/ssrf/unsafe-url.error.js';

/** Discord refuses content over 2 000 characters; Telegram over 4 096. */
const LIMITS = { discord: 2_000, telegram: 4_096, slack: 35_000 } as const;
const clip = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);

export interface SentDigest {
  provider: string;
  provider_message_id: string | null;
}

/**
 * Sends a rendered digest to one target: Slack or Discord incoming webhooks (URLs an operator
 * supplied, so through the SSRF guard), Telegram's Bot API, or email through the configured
 * email connector. Errors say what failed without echoing the webhook URL (it is a secret).
 */
@Injectable()
export class DigestSender {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly guard: OutboundGuard,
    private readonly registry: ConnectorRegistry,
  ) {}

  /** Checks a target before anything is built or sent: 422 when it cannot be used. */
  assertUsable(target: DigestTarget): void {
    if (target.kind === 'slack' || target.kind === 'discord') {
      try {
        this.guard.assertUrl(target.to);
      } catch (err) {
        if (err instanceof UnsafeUrlError)
          throw ApiError.unprocessable(
            'unsafe_url',
            `to: the ${target.kind} webhook URL may not be contacted: ${err.message}`,
          );
        throw err;
      }
    }
    if (target.kind === 'telegram' && !this.config.digest.telegramBotToken) {
      throw ApiError.unprocessable(
        'telegram_not_configured',
        'to: telegram targets need DIGEST_NOTIFY_TELEGRAM_BOT_TOKEN set on the instance.',
      );
    }
    if (target.kind === 'email' && !this.registry.forChannel('email')) {
      throw ApiError.unprocessable(
        'channel_not_configured',
        'to: email targets need an email provider (EMAIL_PROVIDER).',
      );
    }
  }

  async send(target: DigestTarget, headline: string, text: string): Promise<SentDigest> {
    this.assertUsable(target);
    switch (target.kind) {
      case 'slack':
        return this.postWebhook('slack', target.to, { text: clip(text, LIMITS.slack) }, () => null);
      case 'discord': {
        const url = new URL(target.to);
        url.searchParams.set('wait', 'true'); // answer with the message, so we get its id
        return this.postWebhook(
          'discord',
          url.toString(),
          { content: clip(text, LIMITS.discord) },
          (body) => (body as { id?: string })?.id ?? null,
        );
      }
      case 'telegram':
        return this.telegram(target.to, text);
      case 'email':
        return this.email(target.to, headline, text);
    }
  }

  private async postWebhook(
    provider: string,
    url: string,
    body: object,
    idOf: (json: unknown) => string | null,
  ): Promise<SentDigest> {
    let res;
    try {
      res = await this.guard.fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    } catch (err) {
      throw failed(provider, err instanceof UnsafeUrlError ? err.message : 'the webhook did not answer');
    }
    const text = await res.text().catch(() => '');
    if (!res.ok) throw failed(provider, `the webhook answered HTTP ${res.status}`);
    let json: unknown = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      json = null; // Slack answers a plain "ok"
    }
    return { provider, provider_message_id: idOf(json) };
  }

  private async telegram(chatId: string, text: string): Promise<SentDigest> {
    const { telegramApiUrl, telegramBotToken } = this.config.digest;
    let res;
    try {
      res = await fetch(`${telegramApiUrl}/bot${telegramBotToken}/sendMessage`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ chat_id: chatId, text: clip(text, LIMITS.telegram), disable_web_page_preview: true }),
        signal: AbortSignal.timeout(this.config.outbound.timeoutMs),
      });
    } catch {
      throw failed('telegram', 'the Bot API did not answer');
    }
    const json = (await res.json().catch(() => null)) as {
      ok?: boolean;
      description?: string;
      result?: { message_id?: number };
    } | null;
    if (!res.ok || !json?.ok)
      throw failed('telegram', `the Bot API refused: ${json?.description ?? `HTTP ${res.status}`}`);
    return {
      provider: 'telegram',
      provider_message_id: json.result?.message_id !== undefined ? String(json.result.message_id) : null,
    };
  }

  private async email(to: string, subject: string, text: string): Promise<SentDigest> {
    const connector = this.registry.forChannel('email')!;
    const id = randomUUID();
    const [result] = await connector.send([
      {
        jobId: id,
        projectId: 'notifyd',
        channel: 'email',
        recipient: to,
        subscriberId: null,
        subject,
        body: text,
        from: { email: this.config.connectors.emailFrom, name: this.config.connectors.emailFromName ?? 'notifyd' },
        marketing: false,
        priority: 10,
        attempt: 1,
        idempotencyKey: `digest-${id}`,
        payload: {},
      },
    ]);
    if (!result?.ok) throw failed(connector.provider, result ? result.error.message : 'no answer');
    return { provider: connector.provider, provider_message_id: result.providerMessageId };
  }
}

function failed(provider: string, why: string): ApiError {
  return new ApiError(502, 'digest_notify_failed', `The digest could not be sent through ${provider}: ${why}.`, {
    provider,
  });
}
