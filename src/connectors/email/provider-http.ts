import { type ProviderAnswer, readAnswer } from '../json-http.js';
import { undici } from '../../common/undici.js';

export type { ProviderAnswer } from '../json-http.js';

/**
 * One HTTPS call to a provider's API at the operator-configured base URL (not a user-supplied
 * URL, so not through the SSRF guard). Redirects are not followed: a provider API never
 * redirects a send, and following one could replay credentials elsewhere. Network errors and
 * timeouts reject; callers let the dispatcher count them as transient.
 */
export async function callProvider(
  url: string,
  init: { method?: string; headers: Record<string, string>; body?: string },
  timeoutMs: number,
): Promise<ProviderAnswer> {
  const { fetch } = await undici();
  const res = await fetch(url, {
    method: init.method ?? 'POST',
    headers: init.headers,
    body: init.body,
    redirect: 'manual',
    signal: AbortSignal.timeout(timeoutMs),
  });
  // Unlike postJson, a body that cannot be read rejects: the dispatcher counts it as transient.
  return readAnswer(res, await res.text());
}
