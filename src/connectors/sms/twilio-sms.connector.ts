import { Inject } from '@nestjs/common';
import type { AppConfig } from '../../config/app-config.js';
import { APP_CONFIG } from '../../config/config.module.js';
import type { DeliveryResult, OutboundMessage } from '../connector.js';
import { NotifyConnector } from '../connector.decorator.js';
import { smsParts, twilioStatusCallback } from './sms-addressing.js';
import { TwilioMessages } from './twilio/twilio-messages.js';
import { OneMessageConnector } from '../one-message-connector.js';

/**
 * SMS_PROVIDER=twilio: the Messages API through the `twilio` SDK, one message per call (Twilio
 * has no batch send). With PUBLIC_URL set, each message asks for status callbacks at
 * /webhooks/twilio/status?job=<id>, which is how delivered/undelivered reaches the job.
 */
@NotifyConnector()
export class TwilioSmsConnector extends OneMessageConnector {
  readonly channel = 'sms' as const;
  readonly provider = 'twilio';
  private readonly twilio: TwilioMessages;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    super();
    this.twilio = new TwilioMessages(config.sms.twilio, config.outbound.timeoutMs);
  }

  validateConfiguration(): void {
    const problem =
      this.twilio.problem() ??
      (this.config.sms.from
        ? undefined
        : 'SMS_FROM is not set: give the sender, an E.164 number of the account or an alphanumeric id');
    if (problem) throw new Error(`SMS_PROVIDER=twilio: ${problem}.`);
  }

  protected async sendOne(message: OutboundMessage): Promise<DeliveryResult> {
    const parts = smsParts(message, this.config.sms.from);
    if (parts instanceof Error) return { ok: false, error: parts };
    return this.twilio.create({
      from: parts.from,
      to: parts.to,
      body: parts.text,
      statusCallback: twilioStatusCallback(this.config.server.publicUrl, message.jobId),
    });
  }
}
