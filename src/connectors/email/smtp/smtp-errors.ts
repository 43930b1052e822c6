import { ProviderError } from '../../provider-error.js';

/** What nodemailer's SMTP transport puts on the errors it rejects with. */
export interface SmtpFailure {
  message?: string;
  /** nodemailer's own: EAUTH, ECONNECTION, ETIMEDOUT, ESOCKET, EDNS, ETLS, EENVELOPE, EMESSAGE, EPROTOCOL… */
  code?: string;
  /** The SMTP reply code the relay answered with, when it answered. */
  responseCode?: number;
  /** The relay's whole reply line, e.g. `550 5.1.1 <x@y>: Recipient address rejected`. */
  response?: string;
}

/** Without a Retry-After in SMTP, a throttling reply rests the lane this long (then RATE_LIMIT_PAUSE_SECS applies if shorter is wanted). */
const THROTTLE_PAUSE_MS = 30_000;

/**
 * SMTP replies per RFC 5321 §4.2 and the enhanced codes of RFC 3463:
 * - 421 (service closing, the usual "slow down") and 452 (too many recipients / insufficient
 *   storage for now) → rate_limited: the relay asks us to come back later, not the message's fault;
 * - other 4xx → transient (greylisting 450/451, local errors);
 * - 550/551/553 → permanent with deadRecipient (mailbox unavailable, user not local, bad mailbox name);
 *   any other 5xx → permanent;
 * - no reply at all (connection refused, timeout, TLS, DNS) → transient;
 * - a message nodemailer could not build (EMESSAGE, bad address) → permanent;
 * - EAUTH (bad SMTP_USERNAME/SMTP_PASSWORD) → transient, so that the operator's fix delivers the
 *   queue instead of failing it (notifyd fails it; we prefer not to lose mail to a config typo).
 */
export function classifySmtpError(err: SmtpFailure): ProviderError {
  const code = err.responseCode;
  const detail = `SMTP ${code ?? err.code ?? 'error'}: ${(err.response ?? err.message ?? 'no reply').slice(0, 500)}`;
  const providerCode = code !== undefined ? String(code) : err.code;
  if (err.code === 'EAUTH') {
    return ProviderError.transient(`${detail} (check SMTP_USERNAME and SMTP_PASSWORD)`, { providerCode });
  }
  if (code !== undefined && code >= 400 && code < 500) {
    if (code === 421 || code === 452) return ProviderError.rateLimited(detail, THROTTLE_PAUSE_MS, { providerCode });
    return ProviderError.transient(detail, { providerCode });
  }
  if (code !== undefined && code >= 500 && code < 600) {
    return ProviderError.permanent(detail, {
      providerCode,
      deadRecipient: code === 550 || code === 551 || code === 553,
    });
  }
  if (err.code === 'EMESSAGE' || err.code === 'EENVELOPE') return ProviderError.permanent(detail, { providerCode });
  return ProviderError.transient(detail, { providerCode });
}
