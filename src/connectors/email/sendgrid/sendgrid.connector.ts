import type { SendgridSettings } from '../../../config/sections/email-providers.config.js';
import type { DeliveryResult } from '../../connector.js';
import { instanceEmailConnector } from '../instance-connector.js';
import { ApiKeyEmailConnector, bearerJsonHeaders } from '../email-api-connector.js';
import type { EmailContent } from '../email-content.js';
import { attachmentsAs, dispositionAttachment } from '../json-body-parts.js';
import { classifySendgrid } from './sendgrid-errors.js';

/**
 * SendGrid v3 `POST /v3/mail/send`, one message per call: SendGrid's personalizations share one
 * body, and each notification has its own, so batching would need SendGrid-side templates.
 * The job id rides in `custom_args` (echoed in SendGrid's event webhook); the `category` tag
 * becomes a SendGrid category.
 */
export class SendgridConnector extends ApiKeyEmailConnector<SendgridSettings> {
  readonly provider = 'sendgrid';

  protected readonly keyHint = 'a SendGrid API key';
  protected readonly keyMissing = 'EMAIL_PROVIDER=sendgrid needs SENDGRID_API_KEY (an API key with Mail Send access).';

  protected withSettings(settings: SendgridSettings): SendgridConnector {
    return new SendgridConnector(settings, this.defaults);
  }

  protected sendEmail(email: EmailContent): Promise<DeliveryResult> {
    return this.post(
      '/v3/mail/send',
      { headers: bearerJsonHeaders(this.settings.apiKey), body: JSON.stringify(sendgridBody(email)) },
      classifySendgrid,
      (answer) => ({ ok: true, providerMessageId: answer.header('x-message-id') ?? null }),
    );
  }
}

export function sendgridBody(email: EmailContent): Record<string, unknown> {
  const content = [
    ...(email.text !== undefined ? [{ type: 'text/plain', value: email.text }] : []),
    ...(email.html !== undefined ? [{ type: 'text/html', value: email.html }] : []),
  ];
  const category = email.tags.find((t) => t.name === 'category')?.value;
  return {
    personalizations: [
      {
        to: [{ email: email.to }],
        ...(email.cc.length ? { cc: email.cc.map((c) => ({ email: c })) } : {}),
        custom_args: Object.fromEntries(email.tags.map((t) => [t.name, t.value])),
      },
    ],
    from: email.from.name ? { email: email.from.email, name: email.from.name } : { email: email.from.email },
    ...(email.replyTo ? { reply_to: { email: email.replyTo } } : {}),
    subject: email.subject,
    // SendGrid requires at least one content part.
    content: content.length ? content : [{ type: 'text/plain', value: ' ' }],
    ...(Object.keys(email.headers).length ? { headers: email.headers } : {}),
    ...attachmentsAs(email, dispositionAttachment),
    ...(category ? { categories: [category] } : {}),
  };
}

/** The instance's SendGrid account, from SENDGRID_API_KEY (EMAIL_PROVIDER=sendgrid). */
export const InstanceSendgridConnector = instanceEmailConnector(
  SendgridConnector,
  (config) => config.emailProviders.sendgrid,
);
