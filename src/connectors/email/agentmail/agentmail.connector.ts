import { Inject } from '@nestjs/common';
import type { AppConfig } from '../../../config/app-config.js';
import { APP_CONFIG } from '../../../config/config.module.js';
import type { AgentmailSettings } from '../../../config/sections/email-providers.config.js';
import type { Connector, DeliveryResult, OutboundMessage, ProjectSettingsSpec } from '../../connector.js';
import { NotifyConnector } from '../../connector.decorator.js';
import { type EmailContent, emailContent } from '../email-content.js';
import { type EmailDefaults, emailDefaults } from '../email-defaults.js';
import { callProvider } from '../provider-http.js';
import { classifyAgentmail } from './agentmail-errors.js';

/**
 * AgentMail (docs.agentmail.to): `POST /v0/inboxes/{inbox_id}/messages/send`, one message per
 * call. An AgentMail inbox is the sender: its id is its address, so the message's sender
 * (EMAIL_FROM, or the project's from_email) names the inbox, as in notifyd 0.x. The inbox's
 * own display name is what recipients see; the API takes no From name. AgentMail has no tags
 * and no idempotency key for sends.
 */
export class AgentmailConnector implements Connector {
  readonly channel = 'email' as const;
  readonly provider = 'agentmail';
  readonly batchMax = 1;

  /** A project's own AgentMail organisation (per-project providers); the base URL stays the operator's. */
  readonly projectSettings: ProjectSettingsSpec = {
    fields: { api_key: { required: true, secret: true, pattern: /^\S{8,200}$/, hint: 'an AgentMail API key (am_…)' } },
  };

  constructor(
    private readonly settings: AgentmailSettings,
    private readonly defaults: EmailDefaults,
  ) {}

  validateConfiguration(): void {
    if (!this.settings.apiKey)
      throw new Error(
        'EMAIL_PROVIDER=agentmail needs AGENTMAIL_API_KEY (an API key from console.agentmail.to); EMAIL_FROM must be one of its inboxes.',
      );
  }

  forProject(s: Readonly<Record<string, string>>): AgentmailConnector {
    return new AgentmailConnector({ ...this.settings, apiKey: s.api_key }, this.defaults);
  }

  async send(messages: readonly OutboundMessage[]): Promise<DeliveryResult[]> {
    return Promise.all(messages.map((m) => this.sendOne(emailContent(m, this.defaults))));
  }

  private async sendOne(email: EmailContent): Promise<DeliveryResult> {
    const answer = await callProvider(
      `${this.settings.baseUrl}/v0/inboxes/${encodeURIComponent(email.from.email)}/messages/send`,
      {
        headers: {
          authorization: `Bearer ${this.settings.apiKey}`,
          'content-type': 'application/json',
          'user-agent': 'notifyd',
        },
        body: JSON.stringify(agentmailBody(email)),
      },
      this.defaults.timeoutMs,
    );
    const error = classifyAgentmail(answer.status, answer.json, answer.header);
    if (error) return { ok: false, error };
    const sent = (answer.json ?? {}) as { message_id?: string; id?: string };
    return { ok: true, providerMessageId: sent.message_id ?? sent.id ?? null };
  }
}

/** AgentMail's SendMessageRequest. */
export function agentmailBody(email: EmailContent): Record<string, unknown> {
  return {
    to: [email.to],
    ...(email.cc.length ? { cc: email.cc } : {}),
    ...(email.replyTo ? { reply_to: email.replyTo } : {}),
    subject: email.subject,
    ...(email.text !== undefined ? { text: email.text } : {}),
    ...(email.html !== undefined ? { html: email.html } : {}),
    ...(Object.keys(email.headers).length ? { headers: email.headers } : {}),
    ...(email.attachments.length
      ? {
          attachments: email.attachments.map((a) => ({
            filename: a.filename,
            content: a.content,
            content_type: a.contentType,
          })),
        }
      : {}),
  };
}

/** The instance's AgentMail organisation, from AGENTMAIL_API_KEY (EMAIL_PROVIDER=agentmail). */
@NotifyConnector()
export class InstanceAgentmailConnector extends AgentmailConnector {
  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    super(config.emailProviders.agentmail, emailDefaults(config));
  }
}
