import { classifyHttpStatus, parseRetryAfter } from './http-outcome.js';
import type { ProviderAnswer } from './json-http.js';
import { ProviderError } from './provider-error.js';

/** How a provider's error code is treated: the outcome, whether the address is gone, and a hint for the operator. */
export type ErrorRule = {
  kind: 'rate_limited' | 'transient' | 'permanent';
  dead?: boolean;
  /** A wait the provider documents for this code, when its answer carries no Retry-After. */
  retryAfterMs?: number;
  advice?: string;
};

/**
 * An error answer of a provider whose body carries an error code that decides the outcome
 * (Telnyx, WhatsApp Cloud API): the code's rule from the provider's table, or, for a code the
 * table does not list, the generic HTTP rule on the status. The message reads
 * `<name> <code>: <what the provider said> (<advice>)`, and the code is kept for evidence.
 */
export function refusalByRule(
  answer: ProviderAnswer,
  error: { name: string; code: string | number | undefined; said: (string | undefined)[] },
  rules: Record<string, ErrorRule>,
  now: Date,
): ProviderError {
  const code = error.code === undefined ? undefined : String(error.code);
  const rule = code ? rules[code] : undefined;
  const what = error.said.filter(Boolean).join(': ') || answer.text.slice(0, 300) || `HTTP ${answer.status}`;
  const text = `${error.name} ${code ?? `HTTP ${answer.status}`}: ${what}${rule?.advice ? ` (${rule.advice})` : ''}`;
  const retryAfterMs = parseRetryAfter(answer.header('retry-after'), now) ?? rule?.retryAfterMs;
  if (!rule) {
    const generic = classifyHttpStatus(answer.status, answer.header, '', now) ?? ProviderError.permanent(text);
    return new ProviderError(generic.kind, text, { retryAfterMs: generic.retryAfterMs, providerCode: code });
  }
  if (rule.kind === 'rate_limited') return ProviderError.rateLimited(text, retryAfterMs, { providerCode: code });
  if (rule.kind === 'transient') return ProviderError.transient(text, { retryAfterMs, providerCode: code });
  return ProviderError.permanent(text, { deadRecipient: rule.dead ?? false, providerCode: code });
}
