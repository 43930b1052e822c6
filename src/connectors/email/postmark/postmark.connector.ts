import type { PostmarkSettings } from '../../../config/sections/email-providers.config.js';
import type { DeliveryResult, OutboundMessage, ProjectSettingsSpec } from '../../connector.js';
import { ProviderError } from '../../provider-error.js';
import { apiKeySetting, EmailApiConnector } from '../email-api-connector.js';
import { instanceEmailConnector } from '../instance-connector.js';
import { type EmailContent, emailContent, formatAddress } from '../email-content.js';
import { callProvider } from '../provider-http.js';
import { classifyPostmark, classifyPostmarkCode } from './postmark-errors.js';

/**
 * Postmark (postmarkapp.com/developer/api/email-api): `POST /email` for one message,
 * `POST /email/batch` for up to 500. The batch answers 200 with a result per message, so a bad
 * address fails only itself. Marketing email goes to POSTMARK_BROADCAST_STREAM when set
 * (Postmark separates transactional and broadcast reputation), else POSTMARK_MESSAGE_STREAM.
 */
export class PostmarkConnector extends EmailApiConnector<PostmarkSettings> {
  readonly provider = 'postmark';
  override readonly batchMax = 500;

  /** A project's own postmark account (per-project providers); the base URL stays the operator's. */
  readonly projectSettings: ProjectSettingsSpec = {
    fields: {
      server_token: apiKeySetting('a Postmark server API token'),
      message_stream: { pattern: /^[A-Za-z0-9_-]{1,100}$/, hint: 'a Postmark stream id' },
      broadcast_stream: { pattern: /^[A-Za-z0-9_-]{1,100}$/, hint: 'a Postmark stream id' },
    },
  };

  validateConfiguration(): void {
    if (!this.settings.serverToken)
      throw new Error(
        'EMAIL_PROVIDER=postmark needs POSTMARK_SERVER_TOKEN (the server API token, under Servers → API Tokens).',
      );
  }

  forProject(s: Readonly<Record<string, string>>): PostmarkConnector {
    return new PostmarkConnector(
      {
        ...this.settings,
        serverToken: s.server_token,
        messageStream: s.message_stream ?? 'outbound',
        broadcastStream: s.broadcast_stream,
      },
      this.defaults,
    );
  }

  override send(messages: readonly OutboundMessage[]): Promise<DeliveryResult[]> {
    return this.sendBodies(messages.map((m) => this.body(emailContent(m, this.defaults))));
  }

  protected async sendEmail(email: EmailContent): Promise<DeliveryResult> {
    const [result] = await this.sendBodies([this.body(email)]);
    return result;
  }

  /** One body to `/email`, more to `/email/batch`, which answers a result per message. */
  private async sendBodies(emails: Record<string, unknown>[]): Promise<DeliveryResult[]> {
    const batch = emails.length > 1;
    const answer = await callProvider(
      `${this.settings.baseUrl}${batch ? '/email/batch' : '/email'}`,
      {
        headers: {
          'x-postmark-server-token': this.settings.serverToken ?? '',
          accept: 'application/json',
          'content-type': 'application/json',
          'user-agent': 'notifyd',
        },
        body: JSON.stringify(batch ? emails : emails[0]),
      },
      this.defaults.timeoutMs,
    );
    const items = batch && answer.status === 200 ? answer.json : undefined;
    if (!batch || !Array.isArray(items)) {
      const error = classifyPostmark(answer.status, answer.json, answer.header);
      if (error) return emails.map(() => ({ ok: false, error }));
      if (!batch)
        return [
          { ok: true, providerMessageId: (answer.json as { MessageID?: string } | undefined)?.MessageID ?? null },
        ];
      const failure = ProviderError.transient('Postmark batch answered without a result list');
      return emails.map(() => ({ ok: false, error: failure }));
    }
    if (items.length !== emails.length) {
      const failure = ProviderError.transient(
        `Postmark batch answered ${items.length} results for ${emails.length} messages`,
      );
      return emails.map(() => ({ ok: false, error: failure }));
    }
    return (items as { ErrorCode?: number; Message?: string; MessageID?: string }[]).map((item) => {
      const error = classifyPostmarkCode(item.ErrorCode ?? -1, item.Message ?? 'no message');
      return error ? { ok: false, error } : { ok: true, providerMessageId: item.MessageID ?? null };
    });
  }

  private body(email: EmailContent): Record<string, unknown> {
    const category = email.tags.find((t) => t.name === 'category')?.value;
    return {
      From: formatAddress(email.from),
      To: email.to,
      ...(email.cc.length ? { Cc: email.cc.join(', ') } : {}),
      ...(email.replyTo ? { ReplyTo: email.replyTo } : {}),
      Subject: email.subject,
      ...(email.text !== undefined ? { TextBody: email.text } : {}),
      ...(email.html !== undefined ? { HtmlBody: email.html } : {}),
      ...(Object.keys(email.headers).length
        ? { Headers: Object.entries(email.headers).map(([Name, Value]) => ({ Name, Value })) }
        : {}),
      ...(email.attachments.length
        ? {
            Attachments: email.attachments.map((a) => ({
              Name: a.filename,
              Content: a.content,
              ContentType: a.contentType,
            })),
          }
        : {}),
      // Postmark takes one Tag (for its statistics) and free-form Metadata (echoed in webhooks).
      ...(category ? { Tag: category } : {}),
      Metadata: Object.fromEntries(email.tags.map((t) => [t.name, t.value])),
      MessageStream:
        email.marketing && this.settings.broadcastStream ? this.settings.broadcastStream : this.settings.messageStream,
    };
  }
}

/** The instance's Postmark server, from POSTMARK_SERVER_TOKEN (EMAIL_PROVIDER=postmark). */
export const InstancePostmarkConnector = instanceEmailConnector(
  PostmarkConnector,
  (config) => config.emailProviders.postmark,
);
