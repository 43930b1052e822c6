import { type HeaderLookup, headerLookup } from '../http-outcome.js';
import { undici } from '../../common/undici.js';

/** A provider's answer, read whole: status, headers, body text and its JSON when it is JSON. */
export interface ProviderAnswer {
  status: number;
  header: HeaderLookup;
  text: string;
  json: unknown;
}

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
  const text = await res.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, header: headerLookup(res.headers as unknown as Headers), text, json };
}
