import type { DeliveryResult, OutboundMessage } from '../connector.js';
import { NotifyConnector } from '../connector.decorator.js';
import { smsParts } from './sms-addressing.js';
import { TwilioConnector } from './twilio/twilio-connector.js';

/**
 * SMS_PROVIDER=twilio: the Messages API through the `twilio` SDK, one message per call (Twilio
 * has no batch send). With PUBLIC_URL set, each message asks for status callbacks at
 * /webhooks/twilio/status?job=<id>, which is how delivered/undelivered reaches the job.
 */
@NotifyConnector()
export class TwilioSmsConnector extends TwilioConnector {
  readonly channel = 'sms' as const;

  protected async sendOne(message: OutboundMessage): Promise<DeliveryResult> {
    const parts = smsParts(message, this.sender);
    if (parts instanceof Error) return { ok: false, error: parts };
    return this.twilio.create({
      from: parts.from,
      to: parts.to,
      body: parts.text,
      statusCallback: this.statusCallback(message.jobId),
    });
  }
}
