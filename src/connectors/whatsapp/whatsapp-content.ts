import type { DeliveryResult, OutboundMessage } from '../connector.js';
import { ProviderError } from '../provider-error.js';
import { mask } from '../sms/sms-addressing.js';

const E164 = /^\+[1-9]\d{6,14}$/;

/** The recipient as E.164, accepting Twilio's `whatsapp:` form too; or the permanent error. */
export function whatsappNumber(recipient: string): string | ProviderError {
  const number = recipient.startsWith('whatsapp:') ? recipient.slice('whatsapp:'.length) : recipient;
  if (E164.test(number)) return number;
  return ProviderError.permanent(
    `'${mask(recipient)}' is not an E.164 phone number (+ then 7–15 digits); fix the subscriber's phone or the to field.`,
    {
      deadRecipient: true,
    },
  );
}

/** Free text of a WhatsApp message: the body, else the subject. */
export function whatsappText(message: OutboundMessage): string | undefined {
  return message.body ?? message.subject;
}

/**
 * "Text inside the 24-hour window, a template outside it", without knowing the window: with
 * text, the text is sent; if WhatsApp answers that the window is closed and the caller gave a
 * template, the template goes out instead (one more call). Without text, the template is sent.
 */
export async function textElseTemplate(
  options: { text?: string; hasTemplate: boolean; windowClosedCode: string },
  sendText: (text: string) => Promise<DeliveryResult>,
  sendTemplate: () => Promise<DeliveryResult>,
): Promise<DeliveryResult> {
  if (options.text === undefined) {
    if (options.hasTemplate) return sendTemplate();
    return { ok: false, error: ProviderError.permanent('Nothing to send: give a body, or a template in whatsapp.') };
  }
  const first = await sendText(options.text);
  if (!first.ok && first.error.providerCode === options.windowClosedCode && options.hasTemplate) return sendTemplate();
  return first;
}
