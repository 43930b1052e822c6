import type { JobPayload } from '../../domain/job.types.js';
import type { DeliveryResult, OutboundMessage } from '../connector.js';
import { NotifyConnector } from '../connector.decorator.js';
import { ProviderError } from '../provider-error.js';
import { TwilioConnector } from '../sms/twilio/twilio-connector.js';
import { textElseTemplate, whatsappNumber, whatsappText } from './whatsapp-content.js';

/** Twilio's answer when free text is sent outside the 24-hour WhatsApp window. */
const TWILIO_WINDOW_CLOSED = '63016';

/**
 * WHATSAPP_PROVIDER=twilio: the same Messages API as SMS, with `whatsapp:` addresses. Templates
 * are Twilio Content API templates (`whatsapp.content_sid` and `content_variables`).
 */
@NotifyConnector()
export class TwilioWhatsAppConnector extends TwilioConnector {
  readonly channel = 'whatsapp' as const;

  protected async sendOne(message: OutboundMessage): Promise<DeliveryResult> {
    const number = whatsappNumber(message.recipient);
    if (number instanceof ProviderError) return { ok: false, error: number };
    const from = this.sender;
    if (!from) return { ok: false, error: ProviderError.permanent('No WhatsApp sender: set WHATSAPP_FROM.') };
    const options = (message.payload as JobPayload).whatsapp;
    const base = {
      from,
      to: `whatsapp:${number}`,
      statusCallback: this.statusCallback(message.jobId),
    };
    return textElseTemplate(
      {
        text: whatsappText(message),
        hasTemplate: options?.content_sid !== undefined,
        windowClosedCode: TWILIO_WINDOW_CLOSED,
      },
      (body) => this.twilio.create({ ...base, body }),
      () =>
        this.twilio.create({ ...base, contentSid: options!.content_sid, contentVariables: options!.content_variables }),
    );
  }
}
