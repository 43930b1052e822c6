import type { AppConfig } from '../../../config/app-config.js';
import { OneMessageConnector } from '../../one-message-connector.js';
import { twilioStatusCallback } from '../sms-addressing.js';
import { TwilioMessages } from './twilio-messages.js';

/**
 * What the SMS and WhatsApp connectors over Twilio share: the one account (TWILIO_*), the
 * Messages API client, the configuration check and the status callback. A channel names the
 * variable that chose Twilio for it, says what is wrong with its sender, and builds its message.
 */
export abstract class TwilioConnector extends OneMessageConnector {
  readonly provider = 'twilio';
  protected readonly twilio: TwilioMessages;

  constructor(
    protected readonly config: AppConfig,
    /** SMS_PROVIDER or WHATSAPP_PROVIDER, for the configuration errors. */
    private readonly chosenBy: string,
  ) {
    super();
    this.twilio = new TwilioMessages(config.sms.twilio, config.outbound.timeoutMs);
  }

  /** Why the channel's sender is not usable, naming the variable to set; undefined when it is. */
  protected abstract senderProblem(): string | undefined;

  validateConfiguration(): void {
    const problem = this.twilio.problem() ?? this.senderProblem();
    if (problem) throw new Error(`${this.chosenBy}=twilio: ${problem}.`);
  }

  /** Where Twilio reports the message's status for this job (with PUBLIC_URL set). */
  protected statusCallback(jobId: string): string | undefined {
    return twilioStatusCallback(this.config.server.publicUrl, jobId);
  }
}
