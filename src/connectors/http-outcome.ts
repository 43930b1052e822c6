import type { QuotaHint } from './connector.js';
import { ProviderError } from './provider-error.js';

/**
 * `Retry-After` per RFC 9110 §10.2.3: delta-seconds or an HTTP-date. Returns milliseconds from
 * `now`, or undefined when absent or unreadable. A date in the past means "now" (0).
 */
export function parseRetryAfter(value: string | null | undefined, now: Date = new Date()): number | undefined {
  if (value === null || value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  if (!/[a-z]/i.test(text)) return undefined;
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now.getTime());
}

/** Headers as a lookup, whatever the client library gave us. */
export type HeaderLookup = (name: string) => string | null | undefined;

/** A provider's reading of an HTTP answer: its refusal, or null when it took the message. */
export type HttpRefusal = (status: number, body: unknown, header: HeaderLookup, now?: Date) => ProviderError | null;

export function headerLookup(headers: Headers | Record<string, string | string[] | undefined>): HeaderLookup {
  if (typeof (headers as Headers).get === 'function') return (name) => (headers as Headers).get(name);
  const lower = Object.fromEntries(
    Object.entries(headers).map(([k, v]) => [k.toLowerCase(), Array.isArray(v) ? v[0] : v]),
  );
  return (name) => lower[name.toLowerCase()];
}

/**
 * Remaining-quota headers: IETF `ratelimit-remaining`/`ratelimit-reset` (seconds until reset)
 * and the older `x-ratelimit-*` (reset as epoch seconds or seconds until reset).
 */
export function readQuota(header: HeaderLookup, now: Date = new Date()): QuotaHint | undefined {
  const num = (name: string) => {
    const v = header(name);
    return v !== null && v !== undefined && /^\d+(\.\d+)?$/.test(v.trim()) ? Number(v.trim()) : undefined;
  };
  const remaining = num('ratelimit-remaining') ?? num('x-ratelimit-remaining');
  const limit = num('ratelimit-limit') ?? num('x-ratelimit-limit');
  const reset = num('ratelimit-reset') ?? num('x-ratelimit-reset');
  if (remaining === undefined && limit === undefined) return undefined;
  let resetAt: Date | undefined;
  if (reset !== undefined) {
    // Epoch seconds are ~1.7e9; a delta is small. Anything past 1e9 is a timestamp.
    resetAt = reset > 1e9 ? new Date(reset * 1000) : new Date(now.getTime() + reset * 1000);
  }
  return { remaining, limit, resetAt };
}

/**
 * The generic HTTP rule: 2xx → ok (null); 429 → rate_limited with Retry-After; 408 and 5xx →
 * transient; any other 4xx → permanent. Connectors refine it with their provider's codes.
 */
export function classifyHttpStatus(
  status: number,
  header: HeaderLookup,
  bodyText = '',
  now: Date = new Date(),
): ProviderError | null {
  if (status >= 200 && status < 300) return null;
  return refusalByStatus(status, `HTTP ${status}${bodyText ? `: ${bodyText.slice(0, 500)}` : ''}`, header, {}, now);
}

/**
 * A refusal already put into words, by the generic rule: 429 → rate_limited and 408 or 5xx →
 * transient (both waiting for Retry-After when the provider sent one); anything else →
 * permanent. Providers whose error bodies add nothing to the status share it, each with its
 * own wording and code; `deadRecipient` only ever applies to the permanent case.
 */
export function refusalByStatus(
  status: number,
  detail: string,
  header: HeaderLookup,
  options: { providerCode?: string; deadRecipient?: boolean } = {},
  now: Date = new Date(),
): ProviderError {
  const { providerCode, deadRecipient } = options;
  const retryAfterMs = parseRetryAfter(header('retry-after'), now);
  if (status === 429) return ProviderError.rateLimited(detail, retryAfterMs, { providerCode });
  if (status === 408 || status >= 500) return ProviderError.transient(detail, { retryAfterMs, providerCode });
  return ProviderError.permanent(detail, { providerCode, deadRecipient });
}
