import type { Twilio } from 'twilio';
import type { DeliveryResult } from '../../connector.js';
import { classifyTwilioError } from './twilio-errors.js';

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
 * The SDK (~30 MB resident once loaded) is imported and its client built on first use, so a
 * process with no Twilio account configured, or one that never sends through it, never loads it.
 */
export class TwilioMessages {
  private client: Promise<Twilio> | undefined;

  constructor(
    private readonly account: TwilioAccount,
    private readonly timeoutMs: number,
  ) {}

  /** Why this account cannot send, naming the variable to set; undefined when it can. */
  problem(): string | undefined {
    if (!this.account.accountSid)
      return 'TWILIO_ACCOUNT_SID is not set: copy the Account SID (AC…) from the Twilio console';
    if (!this.account.authToken) return 'TWILIO_AUTH_TOKEN is not set: copy the Auth Token from the Twilio console';
    return undefined;
  }

  async create(message: TwilioMessage): Promise<DeliveryResult> {
    try {
      const created = await (
        await this.sdk()
      ).messages.create({
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

  private sdk(): Promise<Twilio> {
    return (this.client ??= this.load());
  }

  private async load(): Promise<Twilio> {
    const [{ default: twilio }, { TwilioTransport }] = await Promise.all([
      import('twilio'),
      import('./twilio-transport.js'),
    ]);
    return twilio(this.account.accountSid, this.account.authToken, {
      accountSid: this.account.accountSid,
      httpClient: new TwilioTransport(this.account.apiBase, this.timeoutMs),
      autoRetry: false,
    });
  }
}
