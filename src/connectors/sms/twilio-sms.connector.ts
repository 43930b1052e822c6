import { Inject } from '@nestjs/common';
import type { AppConfig } from '../../config/app-config.js';
import { APP_CONFIG } from '../../config/config.module.js';
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

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    super(config, 'SMS_PROVIDER');
  }

  protected senderProblem(): string | undefined {
    return this.config.sms.from
      ? undefined
      : 'SMS_FROM is not set: give the sender, an E.164 number of the account or an alphanumeric id';
  }

  protected async sendOne(message: OutboundMessage): Promise<DeliveryResult> {
    const parts = smsParts(message, this.config.sms.from);
    if (parts instanceof Error) return { ok: false, error: parts };
    return this.twilio.create({
      from: parts.from,
      to: parts.to,
      body: parts.text,
      statusCallback: this.statusCallback(message.jobId),
    });
  }
}
