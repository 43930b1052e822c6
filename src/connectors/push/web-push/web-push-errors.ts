import { type HeaderLookup, parseRetryAfter } from '../../http-outcome.js';
import { ProviderError } from '../../provider-error.js';

/**
 * A push service's refusal (RFC 8030 / RFC 8292), classified:
 * - 404, 410: the subscription expired or was unsubscribed → permanent, dead (deleted);
 * - 429: rate limited for Retry-After;
 * - 400, 401, 403: a bad request or a VAPID key the subscription was not made with → permanent,
 *   kept (our configuration, not the device, is at fault: deleting would empty the table);
 * - 413: payload too large → permanent, kept;
 * - 408, 5xx: transient (Retry-After honoured); anything else 4xx: permanent, kept.
 */
export function classifyWebPushRefusal(
  status: number,
  header: HeaderLookup,
  body: string,
  now = new Date(),
): ProviderError {
  const detail = `web push service HTTP ${status}${body.trim() ? `: ${body.trim().slice(0, 300)}` : ''}`;
  const retryAfterMs = parseRetryAfter(header('retry-after'), now);
  if (status === 404 || status === 410)
    return ProviderError.permanent(`${detail} (subscription gone)`, {
      deadRecipient: true,
      providerCode: String(status),
    });
  if (status === 429) return ProviderError.rateLimited(detail, retryAfterMs, { providerCode: '429' });
  if (status === 401 || status === 403) {
    return ProviderError.permanent(
      `${detail} (the push service refused the VAPID signature: check VAPID_PRIVATE_KEY/VAPID_SUBJECT, or the subscription was made with another key)`,
      { providerCode: String(status) },
    );
  }
  if (status === 413)
    return ProviderError.permanent(`${detail} (payload too large: shorten the subject, body or push.data)`, {
      providerCode: '413',
    });
  if (status === 408 || status >= 500)
    return ProviderError.transient(detail, { retryAfterMs, providerCode: String(status) });
  return ProviderError.permanent(detail, { providerCode: String(status) });
}
