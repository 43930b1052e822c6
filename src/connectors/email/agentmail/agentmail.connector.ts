import type { AgentmailSettings } from '../../../config/sections/email-providers.config.js';
import type { DeliveryResult } from '../../connector.js';
import { instanceEmailConnector } from '../instance-connector.js';
import { ApiKeyEmailConnector, bearerJsonHeaders } from '../email-api-connector.js';
import type { EmailContent } from '../email-content.js';
import { attachmentsAs, commonBodyParts, namedAttachment } from '../json-body-parts.js';
import { classifyAgentmail } from './agentmail-errors.js';

/**
 * AgentMail (docs.agentmail.to): `POST /v0/inboxes/{inbox_id}/messages/send`, one message per
 * call. An AgentMail inbox is the sender: its id is its address, so the message's sender
 * (EMAIL_FROM, or the project's from_email) names the inbox, as in notifyd 0.x. The inbox's
 * own display name is what recipients see; the API takes no From name. AgentMail has no tags
 * and no idempotency key for sends.
 */
export class AgentmailConnector extends ApiKeyEmailConnector<AgentmailSettings> {
  readonly provider = 'agentmail';

  protected readonly keyHint = 'an AgentMail API key (am_…)';
  protected readonly keyMissing =
    'EMAIL_PROVIDER=agentmail needs AGENTMAIL_API_KEY (an API key from console.agentmail.to); EMAIL_FROM must be one of its inboxes.';

  protected withSettings(settings: AgentmailSettings): AgentmailConnector {
    return new AgentmailConnector(settings, this.defaults);
  }

  protected sendEmail(email: EmailContent): Promise<DeliveryResult> {
    return this.post(
      `/v0/inboxes/${encodeURIComponent(email.from.email)}/messages/send`,
      { headers: bearerJsonHeaders(this.settings.apiKey), body: JSON.stringify(agentmailBody(email)) },
      classifyAgentmail,
      (answer) => {
        const sent = (answer.json ?? {}) as { message_id?: string; id?: string };
        return { ok: true, providerMessageId: sent.message_id ?? sent.id ?? null };
      },
    );
  }
}

/** AgentMail's SendMessageRequest. */
export function agentmailBody(email: EmailContent): Record<string, unknown> {
  return {
    to: [email.to],
    ...commonBodyParts(email),
    ...attachmentsAs(email, namedAttachment),
  };
}

/** The instance's AgentMail organisation, from AGENTMAIL_API_KEY (EMAIL_PROVIDER=agentmail). */
export const InstanceAgentmailConnector = instanceEmailConnector(
  AgentmailConnector,
  (config) => config.emailProviders.agentmail,
);
