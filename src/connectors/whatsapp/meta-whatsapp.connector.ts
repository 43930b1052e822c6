import type { JobPayload } from '../../domain/job.types.js';
import type { DeliveryResult, OutboundMessage } from '../connector.js';
import { NotifyConnector } from '../connector.decorator.js';
import { postJson } from '../json-http.js';
import { ProviderError } from '../provider-error.js';
import { classifyMetaAnswer, META_WINDOW_CLOSED } from './meta/meta-errors.js';
import { textElseTemplate, whatsappNumber, whatsappText } from './whatsapp-content.js';
import { ConfiguredConnector } from '../one-message-connector.js';

/**
 * WHATSAPP_PROVIDER=meta: the WhatsApp Cloud API, `POST {WHATSAPP_API_BASE}/{phone-number-id}/messages`
 * with a Bearer token, one message per call. Free text inside the 24-hour window, an approved
 * template outside it (see textElseTemplate).
 */
@NotifyConnector()
export class MetaWhatsAppConnector extends ConfiguredConnector {
  readonly channel = 'whatsapp' as const;
  readonly provider = 'meta';

  validateConfiguration(): void {
    const { accessToken, phoneNumberId } = this.config.whatsapp.meta;
    if (!accessToken)
      throw new Error(
        'WHATSAPP_PROVIDER=meta: WHATSAPP_ACCESS_TOKEN is not set; create a system-user token with whatsapp_business_messaging.',
      );
    if (!phoneNumberId)
      throw new Error(
        'WHATSAPP_PROVIDER=meta: WHATSAPP_PHONE_NUMBER_ID is not set; copy the phone number id from WhatsApp Manager (API setup).',
      );
  }

  protected async sendOne(message: OutboundMessage): Promise<DeliveryResult> {
    const to = whatsappNumber(message.recipient);
    if (to instanceof ProviderError) return { ok: false, error: to };
    const template = (message.payload as JobPayload).whatsapp?.template;
    return textElseTemplate(
      { text: whatsappText(message), hasTemplate: template !== undefined, windowClosedCode: META_WINDOW_CLOSED },
      (text) => this.post({ to, type: 'text', text: { body: text, preview_url: false } }),
      () =>
        this.post({
          to,
          type: 'template',
          template: {
            name: template!.name,
            language: { code: template!.language },
            ...(template!.components ? { components: template!.components } : {}),
          },
        }),
    );
  }

  private async post(content: Record<string, unknown>): Promise<DeliveryResult> {
    const { accessToken, phoneNumberId, apiBase } = this.config.whatsapp.meta;
    try {
      const answer = await postJson(
        `${apiBase}/${phoneNumberId}/messages`,
        { messaging_product: 'whatsapp', recipient_type: 'individual', ...content },
        {
          headers: { authorization: `Bearer ${accessToken}` },
          timeoutMs: this.config.outbound.timeoutMs,
          what: 'whatsapp',
        },
      );
      if (answer.status < 200 || answer.status >= 300) return { ok: false, error: classifyMetaAnswer(answer) };
      const id = (answer.json as { messages?: { id?: unknown }[] } | undefined)?.messages?.[0]?.id;
      return { ok: true, providerMessageId: typeof id === 'string' ? id : null };
    } catch (err) {
      if (err instanceof ProviderError) return { ok: false, error: err };
      throw err;
    }
  }
}
