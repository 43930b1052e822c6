import twilio from 'twilio';
import type { DeliveryResult } from '../../connector.js';
import { classifyTwilioError } from './twilio-errors.js';
import { TwilioTransport } from './twilio-transport.js';

export interface TwilioAccount {
  accountSid?: string;
  authToken?: string;
  apiBase: string;
}

/** One Messages create call, SMS or WhatsApp: exactly the parameters Twilio documents. */
export interface TwilioMessage {
  from: string;
  to: string;
  body?: string;
  statusCallback?: string;
  /** WhatsApp templates (Content API): the approved template and its variables. */
  contentSid?: string;
  contentVariables?: Record<string, string>;
}

/**
 * The Twilio Messages API through the official SDK, shared by the SMS and WhatsApp connectors.
 * The SDK client is built on first use, so an unconfigured account costs nothing at boot.
 */
export class TwilioMessages {
  private client: twilio.Twilio | undefined;

  constructor(
    private readonly account: TwilioAccount,
    private readonly timeoutMs: number,
  ) {}

  /** Why this account cannot send, naming the variable to set; undefined when it can. */
  problem(): string | undefined {
    if (!this.account.accountSid) return 'TWILIO_ACCOUNT_SID is not set: copy the Account SID (AC…) from the Twilio console';
    if (!this.account.authToken) return 'TWILIO_AUTH_TOKEN is not set: copy the Auth Token from the Twilio console';
    return undefined;
  }

  async create(message: TwilioMessage): Promise<DeliveryResult> {
    try {
      const created = await this.sdk().messages.create({
        from: message.from,
        to: message.to,
        ...(message.body !== undefined ? { body: message.body } : {}),
        ...(message.statusCallback ? { statusCallback: message.statusCallback } : {}),
        ...(message.contentSid ? { contentSid: message.contentSid } : {}),
        ...(message.contentVariables ? { contentVariables: JSON.stringify(message.contentVariables) } : {}),
      });
      return { ok: true, providerMessageId: created.sid ?? null };
    } catch (err) {
      return { ok: false, error: classifyTwilioError(err) };
    }
  }

  private sdk(): twilio.Twilio {
    if (!this.client) {
      this.client = twilio(this.account.accountSid, this.account.authToken, {
        accountSid: this.account.accountSid,
        httpClient: new TwilioTransport(this.account.apiBase, this.timeoutMs),
        autoRetry: false,
      });
    }
    return this.client;
  }
}
