import { type ErrorRule, refusalByRule } from '../../error-rules.js';
import type { ProviderAnswer } from '../../json-http.js';
import type { ProviderError } from '../../provider-error.js';

/** The error code WhatsApp answers when free text is sent outside the 24-hour customer service window. */
export const META_WINDOW_CLOSED = '131047';

/**
 * WhatsApp Cloud API error codes (Graph `error.code`;
 * https://developers.facebook.com/docs/whatsapp/cloud-api/support/error-codes). Graph answers
 * most of them with HTTP 400, so the code decides, not the status; codes not listed fall back
 * to the status. docs/CONNECTORS.md shows this table; keep them in step.
 */
export const META_ERROR_RULES: Record<string, ErrorRule> = {
  '0': { kind: 'permanent', advice: 'check WHATSAPP_ACCESS_TOKEN' }, // AuthException
  '1': { kind: 'transient' }, // API unknown
  '2': { kind: 'transient' }, // API service
  '3': { kind: 'permanent', advice: 'the app lacks this capability' }, // API method
  '4': { kind: 'rate_limited' }, // Too many calls: app-level rate limit
  '10': { kind: 'permanent', advice: 'the token lacks whatsapp_business_messaging' }, // Permission denied
  '100': { kind: 'permanent' }, // Invalid parameter
  '190': { kind: 'permanent', advice: 'WHATSAPP_ACCESS_TOKEN has expired; issue a new system-user token' }, // Access token expired
  '200': { kind: 'permanent', advice: 'the token lacks a permission' }, // Permission error
  '368': { kind: 'permanent', advice: 'the business number is blocked for policy violations' }, // Temporarily blocked
  '80007': { kind: 'rate_limited' }, // WhatsApp Business Account rate limit
  '130429': { kind: 'rate_limited' }, // Cloud API throughput reached
  '130472': { kind: 'permanent' }, // User's number is part of an experiment
  '131000': { kind: 'transient' }, // Something went wrong
  '131005': { kind: 'permanent', advice: 'the token may not use this phone number id' }, // Access denied
  '131008': { kind: 'permanent' }, // Required parameter missing
  '131009': { kind: 'permanent' }, // Parameter value not valid
  '131016': { kind: 'transient' }, // Service unavailable
  '131021': { kind: 'permanent' }, // Recipient cannot be the sender
  '131026': { kind: 'permanent' }, // Undeliverable: not on WhatsApp, blocked us, or an old client
  '131030': { kind: 'permanent', advice: 'add the number to the test recipients, or move the app to live mode' }, // Recipient not in allowed list
  '131031': { kind: 'permanent', advice: 'the business account is locked' }, // Account locked
  '131042': { kind: 'permanent', advice: 'fix the payment method in WhatsApp Manager' }, // Business eligibility payment issue
  '131045': { kind: 'permanent', advice: 'the phone number is not registered or its certificate is wrong' }, // Incorrect certificate
  [META_WINDOW_CLOSED]: {
    kind: 'permanent',
    advice: 'outside the 24-hour customer service window WhatsApp needs an approved template: pass whatsapp.template',
  },
  '131048': { kind: 'rate_limited' }, // Spam rate limit: quality-based
  '131049': { kind: 'transient' }, // Meta chose not to deliver (per-user marketing limit): retry later
  '131050': { kind: 'permanent' }, // The user stopped marketing messages from this business
  '131051': { kind: 'permanent' }, // Unsupported message type
  '131052': { kind: 'permanent' }, // Media download error
  '131053': { kind: 'permanent' }, // Media upload error
  '131056': { kind: 'rate_limited', retryAfterMs: 6_000 }, // Pair rate limit: about one message per 6 s to one user
  '131057': { kind: 'transient' }, // Account in maintenance mode
  '132000': { kind: 'permanent', advice: 'the template parameters do not match its placeholders' }, // Template param count mismatch
  '132001': { kind: 'permanent', advice: 'no approved template with this name and language' }, // Template does not exist
  '132005': { kind: 'permanent' }, // Template hydrated text too long
  '132007': { kind: 'permanent' }, // Template format character policy violated
  '132012': { kind: 'permanent' }, // Template parameter format mismatch
  '132015': { kind: 'permanent', advice: 'the template is paused for low quality' }, // Template paused
  '132016': { kind: 'permanent', advice: 'the template is disabled' }, // Template disabled
  '133004': { kind: 'transient' }, // Server temporarily unavailable
  '133010': { kind: 'permanent', advice: 'register the phone number with the Cloud API' }, // Phone number not registered
  '135000': { kind: 'permanent' }, // Generic user error
};

interface GraphError {
  message?: string;
  code?: number | string;
  error_subcode?: number;
  error_data?: { details?: string };
}

/** A Graph error answer as one of the four outcome kinds, keeping the code (131050 is a marketing opt-out). */
export function classifyMetaAnswer(answer: ProviderAnswer, now: Date = new Date()): ProviderError {
  const error = (answer.json as { error?: GraphError } | undefined)?.error;
  return refusalByRule(
    answer,
    { name: 'whatsapp', code: error?.code, said: [error?.message, error?.error_data?.details] },
    META_ERROR_RULES,
    now,
  );
}
