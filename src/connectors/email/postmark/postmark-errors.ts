import { type HttpRefusal, parseRetryAfter } from '../../http-outcome.js';
import { ProviderError } from '../../provider-error.js';

/**
 * Postmark's API error codes (postmarkapp.com/developer/api/overview#error-codes). An HTTP 422
 * carries `{ErrorCode, Message}`; the batch endpoint answers 200 with one such object per
 * message, ErrorCode 0 meaning accepted.
 */
const PERMANENT_CODES: Record<number, string> = {
  10: 'bad or missing server token',
  300: 'invalid email request',
  400: 'sender signature not found',
  401: 'sender signature not confirmed',
  402: 'invalid JSON',
  403: 'incompatible JSON',
  409: 'JSON required',
  410: 'too many batch messages',
  411: 'forbidden attachment type',
  412: 'account pending approval',
  413: 'not allowed to send (pending account: recipients must share the sender domain)',
  1235: 'message stream not found',
};

/**
 * - ErrorCode 0 → accepted;
 * - 406 (inactive recipient: hard bounce, spam complaint or manual suppression) → permanent, dead;
 * - 405 (not allowed to send: out of credits) → quota pause;
 * - 100 (maintenance) → transient;
 * - any other code → permanent;
 * - HTTP 429 → rate_limited; 5xx and 408 → transient (the request did not get an ErrorCode).
 */
export const classifyPostmark: HttpRefusal = (status, body, header, now = new Date()) => {
  const { ErrorCode: code, Message: message } = (body ?? {}) as { ErrorCode?: number; Message?: string };
  if (status === 429)
    return ProviderError.rateLimited(
      `Postmark 429: ${message ?? 'rate limit exceeded'}`,
      parseRetryAfter(header('retry-after'), now),
    );
  if (status === 408 || status >= 500)
    return ProviderError.transient(`Postmark ${status}: ${(message ?? '').slice(0, 500)}`, {
      retryAfterMs: parseRetryAfter(header('retry-after'), now),
    });
  if (status >= 200 && status < 300 && (code === 0 || code === undefined)) return null;
  return classifyPostmarkCode(code ?? -1, message ?? `HTTP ${status}`);
};

export function classifyPostmarkCode(code: number, message: string): ProviderError | null {
  if (code === 0) return null;
  const detail = `Postmark ErrorCode ${code}: ${message.slice(0, 500)}`;
  const providerCode = String(code);
  if (code === 406) return ProviderError.permanent(detail, { deadRecipient: true, providerCode });
  if (code === 405) return ProviderError.rateLimited(detail, undefined, { quotaExhausted: true, providerCode });
  if (code === 100) return ProviderError.transient(detail, { providerCode });
  return ProviderError.permanent(PERMANENT_CODES[code] ? detail : `${detail} (unlisted code)`, { providerCode });
}
