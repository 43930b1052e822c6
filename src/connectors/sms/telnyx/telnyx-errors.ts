import { type ErrorRule, refusalByRule } from '../../error-rules.js';
import type { ProviderAnswer } from '../../json-http.js';
import type { ProviderError } from '../../provider-error.js';

/**
 * Telnyx error codes a POST /v2/messages can answer with (the `errors[].code` of its JSON:API
 * error body; https://developers.telnyx.com/docs/overview/errors). Codes not listed fall back
 * to the HTTP status. docs/CONNECTORS.md shows this table; keep them in step.
 */
export const TELNYX_ERROR_RULES: Record<string, ErrorRule> = {
  '10005': { kind: 'permanent', advice: 'check TELNYX_API_BASE' }, // Resource not found
  '10007': { kind: 'transient' }, // Unexpected error
  '10009': { kind: 'permanent', advice: 'check TELNYX_API_KEY' }, // Authentication failed
  '10010': { kind: 'permanent', advice: 'the API key may not send messages' }, // Authorization failed
  '10011': { kind: 'rate_limited' }, // Too many requests
  '40001': { kind: 'permanent' }, // Not routable
  '40002': { kind: 'transient' }, // Blocked as spam, temporarily
  '40003': { kind: 'permanent' }, // Blocked as spam, permanently
  '40004': { kind: 'permanent' }, // Rejected by destination
  '40005': { kind: 'transient' }, // Message expired during transmission
  '40006': { kind: 'transient' }, // Recipient server unavailable
  '40008': { kind: 'permanent' }, // Undeliverable
  '40009': { kind: 'permanent', advice: 'fix the message body' }, // Invalid message body
  '40011': { kind: 'rate_limited' }, // Too many messages: rate limit for the sender
  '40012': { kind: 'permanent', dead: true }, // Invalid destination number
  '40013': { kind: 'permanent', advice: 'SMS_FROM (or sms.from) is not a number of this Telnyx account' }, // Invalid source number
  '40300': { kind: 'permanent', dead: true }, // Blocked due to STOP message
  '40305': { kind: 'permanent', advice: 'SMS_FROM (or sms.from) is not a valid sender for this profile' }, // Invalid 'from' address
  '40310': { kind: 'permanent', dead: true }, // Invalid 'to' address
  '40311': { kind: 'permanent', advice: 'check TELNYX_MESSAGING_PROFILE_ID' }, // Invalid messaging profile
};

interface TelnyxError {
  code?: string | number;
  title?: string;
  detail?: string;
}

/** A Telnyx error answer as one of the four outcome kinds; the first error's code decides. */
export function classifyTelnyxAnswer(answer: ProviderAnswer, now: Date = new Date()): ProviderError {
  const first = ((answer.json as { errors?: TelnyxError[] } | undefined)?.errors ?? [])[0];
  return refusalByRule(
    answer,
    { name: 'telnyx', code: first?.code, said: [first?.title, first?.detail] },
    TELNYX_ERROR_RULES,
    now,
  );
}
