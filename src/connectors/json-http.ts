import type { RequestInit, Response } from 'undici';
import { type HeaderLookup, headerLookup } from './http-outcome.js';
import { ProviderError } from './provider-error.js';
import { UnsafeUrlError } from '../common/ssrf/unsafe-url.error.js';
import { undici } from '../common/undici.js';

/** A provider's answer, read whole: status, headers, raw text and the JSON body when it is JSON. */
export interface ProviderAnswer {
  status: number;
  header: HeaderLookup;
  text: string;
  /** Parsed body, or undefined when the body is not JSON (Slack webhooks answer plain text). */
  json: unknown;
}

export type Fetcher = (url: string, init: Omit<RequestInit, 'redirect' | 'dispatcher'>) => Promise<Response>;

/**
 * POSTs JSON to a provider and reads the whole answer. `fetcher` is plain fetch for the
 * operator's base URLs (timeout OUTBOUND_TIMEOUT_MS) and OutboundGuard.fetch for URLs that
 * callers supplied (chat webhooks). Throws ProviderError: transient for network failures and
 * timeouts, permanent for a URL the SSRF guard refuses (nothing was sent).
 */
export async function postJson(
  url: string,
  body: unknown,
  options: { headers?: Record<string, string>; timeoutMs: number; fetcher?: Fetcher; what: string },
): Promise<ProviderAnswer> {
  let response: Response;
  try {
    const init = {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', ...options.headers },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(options.timeoutMs),
    };
    response = options.fetcher
      ? await options.fetcher(url, init)
      : await (await undici()).fetch(url, { ...init, redirect: 'manual' });
  } catch (err) {
    if (err instanceof UnsafeUrlError)
      throw ProviderError.permanent(`${options.what}: refused to call that URL: ${err.message}`);
    const e = err as { name?: string; message?: string; cause?: { code?: string; message?: string } };
    const reason =
      e.name === 'TimeoutError'
        ? `no answer within OUTBOUND_TIMEOUT_MS (${options.timeoutMs} ms)`
        : (e.cause?.code ?? e.cause?.message ?? e.message ?? String(err));
    // Never the URL: it may carry a token (Telegram) or be a secret itself (webhooks).
    throw ProviderError.transient(`${options.what}: ${reason}`);
  }
  return readAnswer(response, await response.text().catch(() => ''));
}

/** The whole answer of a provider whose body was read as `text`: JSON parsed when it is JSON. */
export function readAnswer(response: Response, text: string): ProviderAnswer {
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: response.status, header: headerLookup(response.headers as unknown as Headers), text, json };
}
