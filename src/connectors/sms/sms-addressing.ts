import type { OutboundMessage } from '../connector.js';
import { ProviderError } from '../provider-error.js';

const E164 = /^\+[1-9]\d{6,14}$/;
const ALPHANUMERIC = /^(?=[A-Za-z0-9 ]*[A-Za-z])[A-Za-z0-9 ]{1,11}$/;

/** notifyd's sender rule: an E.164 number, or an alphanumeric sender id (1–11 characters, one letter at least). */
export function isSmsSender(value: string): boolean {
  return E164.test(value) || ALPHANUMERIC.test(value);
}

export function isAlphanumericSender(value: string): boolean {
  return ALPHANUMERIC.test(value) && !E164.test(value);
}

export function isE164(value: string): boolean {
  return E164.test(value);
}

/**
 * Sender, recipient and text of one SMS, or the permanent error that makes calling the
 * provider pointless. The per-message `sms.from` wins over SMS_FROM; both were validated at
 * enqueue and boot, checked again here because a payload outlives a configuration change.
 */
export function smsParts(
  message: OutboundMessage,
  defaultFrom: string | undefined,
): { from: string; to: string; text: string } | ProviderError {
  const sms = message.payload.sms as { from?: unknown } | null | undefined;
  const from = typeof sms?.from === 'string' && sms.from ? sms.from : defaultFrom;
  if (!from) return ProviderError.permanent('No SMS sender: set SMS_FROM, or pass sms.from with the message.');
  if (!isSmsSender(from))
    return ProviderError.permanent(
      `SMS sender '${from}' is neither E.164 (+15005550006) nor an alphanumeric id of 1–11 characters.`,
    );
  if (!isE164(message.recipient)) {
    return ProviderError.permanent(
      `'${mask(message.recipient)}' is not an E.164 phone number (+ then 7–15 digits); fix the subscriber's phone or the to field.`,
      {
        deadRecipient: true,
      },
    );
  }
  const text = message.body ?? message.subject;
  if (!text) return ProviderError.permanent('Nothing to send: give a body (or a subject).');
  return { from, to: message.recipient, text };
}

/** Phone numbers are personal data: errors keep only the last 4 digits. */
export function mask(value: string): string {
  return value.length <= 4 ? '***' : `***${value.slice(-4)}`;
}

/** Where Twilio reports delivery for a job (the route is served by the governance module). */
export function twilioStatusCallback(publicUrl: string | undefined, jobId: string): string | undefined {
  return publicUrl ? `${publicUrl}/webhooks/twilio/status?job=${encodeURIComponent(jobId)}` : undefined;
}
