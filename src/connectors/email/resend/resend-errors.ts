import { type HttpRefusal, parseRetryAfter, refusalByStatus } from '../../http-outcome.js';
import { ProviderError } from '../../provider-error.js';

/**
 * Resend's documented errors (resend.com/docs/api-reference/errors): `{statusCode, name, message}`.
 * - 429 rate_limit_exceeded → rate_limited (Retry-After);
 * - 429 daily_quota_exceeded / monthly_quota_exceeded → quota pause (not a retry);
 * - 409 concurrent_idempotent_requests → transient (the first request is still running);
 * - 409 invalid_idempotent_request, 400, 401, 403, 404, 405, 422, 451 → permanent;
 * - 5xx (application_error, internal_server_error) and 408 → transient.
 * Resend refuses no recipient address as gone at send time (bounces arrive by webhook), so
 * nothing here marks deadRecipient.
 */
export const classifyResend: HttpRefusal = (status, body, header, now = new Date()) => {
  if (status >= 200 && status < 300) return null;
  const { name, message } = (body ?? {}) as { name?: string; message?: string };
  const detail = `Resend ${status}${name ? ` ${name}` : ''}: ${(message ?? '').slice(0, 500)}`;
  const retryAfterMs = parseRetryAfter(header('retry-after'), now);
  if (status === 429) {
    if (name === 'daily_quota_exceeded' || name === 'monthly_quota_exceeded') {
      return ProviderError.rateLimited(detail, retryAfterMs, { quotaExhausted: true, providerCode: name });
    }
    return ProviderError.rateLimited(detail, retryAfterMs, { providerCode: name });
  }
  if (status === 409 && name === 'concurrent_idempotent_requests')
    return ProviderError.transient(detail, { retryAfterMs, providerCode: name });
  return refusalByStatus(status, detail, header, { providerCode: name }, now);
};
