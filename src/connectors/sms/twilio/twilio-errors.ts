import { headerLookup, parseRetryAfter } from '../../http-outcome.js';
import { ProviderError } from '../../provider-error.js';
import { TwilioHttpError } from './twilio-http-error.js';

type Rule = { kind: 'rate_limited' | 'transient' | 'permanent'; dead?: boolean; advice?: string };

/**
 * Twilio error codes a Messages create call can answer with (https://www.twilio.com/docs/api/errors).
 * Codes not listed fall back to the HTTP status: 429 rate limited, 408/5xx transient, other 4xx permanent.
 * docs/CONNECTORS.md shows this table; keep them in step.
 */
export const TWILIO_ERROR_RULES: Record<number, Rule> = {
  20429: { kind: 'rate_limited' }, // Too many concurrent requests: never processed, always safe to retry
  14107: { kind: 'rate_limited' }, // Message rate limit exceeded for this From number
  63018: { kind: 'rate_limited' }, // WhatsApp: rate limit exceeded for the channel
  20003: { kind: 'permanent', advice: 'check TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN' }, // Authentication failed
  20404: { kind: 'permanent', advice: 'check TWILIO_ACCOUNT_SID' }, // Resource not found
  20500: { kind: 'transient' }, // Internal server error
  20503: { kind: 'transient' }, // Service unavailable
  21211: { kind: 'permanent', dead: true }, // Invalid To phone number
  21214: { kind: 'permanent', dead: true }, // To number cannot be reached
  21217: { kind: 'permanent', dead: true }, // Phone number does not appear to be valid
  21408: { kind: 'permanent', advice: 'enable the region in the Twilio console (Messaging geographic permissions)' }, // Region not enabled
  21606: { kind: 'permanent', advice: 'SMS_FROM (or sms.from) is not an SMS-capable number of this account' }, // From is not a valid, SMS-capable number
  21610: { kind: 'permanent', dead: true }, // Recipient replied STOP: unsubscribed from this sender
  21612: { kind: 'permanent' }, // Cannot route between this From and To
  21614: { kind: 'permanent', dead: true }, // To is not a mobile number
  21617: { kind: 'permanent', advice: 'shorten the body (1600 characters at most)' }, // Body too long
  21659: { kind: 'permanent', advice: 'use a sender this account owns' }, // From is not a Twilio number of this account
  21660: { kind: 'permanent', advice: 'use a sender this account owns' }, // Mismatch between From and account
  63003: { kind: 'permanent', dead: true }, // WhatsApp: channel could not find the To address
  63016: {
    kind: 'permanent',
    advice:
      'outside the 24-hour WhatsApp window free text is refused: send an approved template (whatsapp.content_sid)',
  },
  63024: { kind: 'permanent', dead: true }, // WhatsApp: invalid message recipient
};

/** Twilio's answer (or a transport failure) as one of the four outcome kinds, with the Twilio code kept. */
export function classifyTwilioError(err: unknown, now: Date = new Date()): ProviderError {
  if (!(err instanceof TwilioHttpError)) {
    // axios network errors and timeouts (ECONNREFUSED, ECONNABORTED, ETIMEDOUT…)
    const e = err as { code?: string; message?: string };
    return ProviderError.transient(`twilio: ${e.code ? `${e.code} ` : ''}${e.message ?? String(err)}`);
  }
  const header = headerLookup(err.headers);
  const retryAfterMs = parseRetryAfter(header('retry-after'), now);
  const code = err.code;
  const providerCode = code === undefined ? undefined : String(code);
  const rule = code === undefined ? undefined : TWILIO_ERROR_RULES[code];
  const text = `twilio ${code ?? `HTTP ${err.status}`}: ${err.message}${rule?.advice ? ` (${rule.advice})` : ''}`;
  const kind =
    rule?.kind ??
    (err.status === 429 ? 'rate_limited' : err.status === 408 || err.status >= 500 ? 'transient' : 'permanent');
  if (kind === 'rate_limited') return ProviderError.rateLimited(text, retryAfterMs, { providerCode });
  if (kind === 'transient') return ProviderError.transient(text, { retryAfterMs, providerCode });
  return ProviderError.permanent(text, { deadRecipient: rule?.dead ?? false, providerCode });
}
