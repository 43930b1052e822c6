import { type HttpRefusal, parseRetryAfter } from '../../http-outcome.js';
import { ProviderError } from '../../provider-error.js';

/**
 * SendGrid v3 Mail Send answers (www.twilio.com/docs/sendgrid/api-reference/mail-send/mail-send
 * and …/for-developers/sending-email/v3-mail-send-faq): 202 accepted with `X-Message-Id`;
 * errors as `{"errors": [{message, field, help}]}`.
 * - 429 → rate_limited, until `X-RateLimit-Reset` (epoch seconds) or Retry-After;
 * - "Maximum credits exceeded" (401/403) → quota pause: the plan's credits are spent;
 * - 400, 401, 403, 404, 405, 413 (payload too large), other 4xx → permanent;
 * - 5xx and 408 → transient.
 * SendGrid accepts every syntactically valid address at send time (bounces arrive by event
 * webhook), so nothing here is a dead recipient.
 */
export const classifySendgrid: HttpRefusal = (status, body, header, now = new Date()) => {
  if (status >= 200 && status < 300) return null;
  const errors = ((body ?? {}) as { errors?: { message?: string; field?: string | null }[] }).errors ?? [];
  const message = errors.map((e) => (e.field ? `${e.field}: ${e.message}` : e.message)).join('; ');
  const detail = `SendGrid ${status}: ${message.slice(0, 500)}`;
  if (/maximum credits exceeded/i.test(message))
    return ProviderError.rateLimited(detail, undefined, { quotaExhausted: true, providerCode: String(status) });
  if (status === 429) {
    const reset = Number(header('x-ratelimit-reset'));
    const untilReset =
      Number.isFinite(reset) && reset > 1e9 && reset * 1000 > now.getTime() ? reset * 1000 - now.getTime() : undefined;
    return ProviderError.rateLimited(detail, parseRetryAfter(header('retry-after'), now) ?? untilReset, {
      providerCode: '429',
    });
  }
  if (status === 408 || status >= 500) return ProviderError.transient(detail, { providerCode: String(status) });
  return ProviderError.permanent(detail, { providerCode: String(status) });
};
