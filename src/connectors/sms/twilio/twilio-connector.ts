import { Inject } from '@nestjs/common';
import type { AppConfig } from '../../../config/app-config.js';
import { APP_CONFIG } from '../../../config/config.module.js';
import { ConfiguredConnector } from '../../one-message-connector.js';
import { twilioStatusCallback } from '../sms-addressing.js';
import { TwilioMessages } from './twilio-messages.js';

/**
 * What each channel over Twilio needs besides the account: the variable that chose Twilio for
 * it, and its sender (where the configuration holds it, and the error naming the variable when
 * it is not set).
 */
const CHANNELS = {
  sms: {
    chosenBy: 'SMS_PROVIDER',
    sender: (config: AppConfig) => config.sms.from,
    senderMissing: 'SMS_FROM is not set: give the sender, an E.164 number of the account or an alphanumeric id',
  },
  whatsapp: {
    chosenBy: 'WHATSAPP_PROVIDER',
    sender: (config: AppConfig) => config.whatsapp.twilioFrom,
    senderMissing: 'WHATSAPP_FROM is not set: give the WhatsApp-enabled sender number (E.164)',
  },
} as const;

/**
 * What the SMS and WhatsApp connectors over Twilio share: the one account (TWILIO_*), the
 * Messages API client, the configuration check (the account, then the channel's sender) and
 * the status callback. A channel names itself and builds its message.
 */
export abstract class TwilioConnector extends ConfiguredConnector {
  abstract override readonly channel: keyof typeof CHANNELS;
  readonly provider = 'twilio';
  protected readonly twilio: TwilioMessages;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    super(config);
    this.twilio = new TwilioMessages(config.sms.twilio, config.outbound.timeoutMs);
  }

  /** The channel's default sender (SMS_FROM, WHATSAPP_FROM), undefined when it is not set. */
  protected get sender(): string | undefined {
    return CHANNELS[this.channel].sender(this.config);
  }

  validateConfiguration(): void {
    const { chosenBy, senderMissing } = CHANNELS[this.channel];
    const problem = this.twilio.problem() ?? (this.sender ? undefined : senderMissing);
    if (problem) throw new Error(`${chosenBy}=twilio: ${problem}.`);
  }

  /** Where Twilio reports the message's status for this job (with PUBLIC_URL set). */
  protected statusCallback(jobId: string): string | undefined {
    return twilioStatusCallback(this.config.server.publicUrl, jobId);
  }
}
