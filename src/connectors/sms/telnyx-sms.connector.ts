import type { DeliveryResult, OutboundMessage } from '../connector.js';
import { NotifyConnector } from '../connector.decorator.js';
import { postJson } from '../json-http.js';
import { ProviderError } from '../provider-error.js';
import { isAlphanumericSender, smsParts } from './sms-addressing.js';
import { classifyTelnyxAnswer } from './telnyx/telnyx-errors.js';
import { ConfiguredConnector } from '../one-message-connector.js';

/**
 * SMS_PROVIDER=telnyx: `POST /v2/messages` (JSON, Bearer key), one message per call. An
 * alphanumeric sender needs a messaging profile (Telnyx routes it by profile), so without
 * TELNYX_MESSAGING_PROFILE_ID such a message fails before any call.
 */
@NotifyConnector()
export class TelnyxSmsConnector extends ConfiguredConnector {
  readonly channel = 'sms' as const;
  readonly provider = 'telnyx';

  validateConfiguration(): void {
    if (!this.config.sms.telnyx.apiKey)
      throw new Error('SMS_PROVIDER=telnyx: TELNYX_API_KEY is not set; create a v2 API key in the Telnyx portal.');
    if (!this.config.sms.from)
      throw new Error(
        'SMS_PROVIDER=telnyx: SMS_FROM is not set; give the sender, an E.164 number of the account or an alphanumeric id.',
      );
    if (isAlphanumericSender(this.config.sms.from) && !this.config.sms.telnyx.messagingProfileId) {
      throw new Error(
        `SMS_PROVIDER=telnyx: SMS_FROM=${this.config.sms.from} is an alphanumeric sender, which Telnyx only routes through a messaging profile; set TELNYX_MESSAGING_PROFILE_ID.`,
      );
    }
  }

  protected async sendOne(message: OutboundMessage): Promise<DeliveryResult> {
    const { apiKey, apiBase, messagingProfileId } = this.config.sms.telnyx;
    const parts = smsParts(message, this.config.sms.from);
    if (parts instanceof Error) return { ok: false, error: parts };
    if (isAlphanumericSender(parts.from) && !messagingProfileId) {
      return {
        ok: false,
        error: ProviderError.permanent(
          `Alphanumeric sender '${parts.from}' needs a Telnyx messaging profile: set TELNYX_MESSAGING_PROFILE_ID, or send from a number.`,
        ),
      };
    }
    try {
      const answer = await postJson(
        `${apiBase}/v2/messages`,
        {
          from: parts.from,
          to: parts.to,
          text: parts.text,
          type: 'SMS',
          ...(messagingProfileId ? { messaging_profile_id: messagingProfileId } : {}),
        },
        { headers: { authorization: `Bearer ${apiKey}` }, timeoutMs: this.config.outbound.timeoutMs, what: 'telnyx' },
      );
      if (answer.status < 200 || answer.status >= 300) return { ok: false, error: classifyTelnyxAnswer(answer) };
      const id = (answer.json as { data?: { id?: unknown } } | undefined)?.data?.id;
      return { ok: true, providerMessageId: typeof id === 'string' ? id : null };
    } catch (err) {
      if (err instanceof ProviderError) return { ok: false, error: err };
      throw err;
    }
  }
}
