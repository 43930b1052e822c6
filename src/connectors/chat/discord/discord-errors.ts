import { parseRetryAfter } from '../../http-outcome.js';
import type { ProviderAnswer } from '../../json-http.js';
import { ProviderError } from '../../provider-error.js';

type Rule = { kind: 'transient' | 'permanent'; dead?: boolean; advice?: string };

/**
 * Discord JSON error codes a webhook execution can answer with
 * (https://discord.com/developers/docs/topics/opcodes-and-status-codes#json). A 429 is always a
 * rate limit (body `retry_after`, seconds as a float); 401/403/404/410 mean the webhook is gone
 * (notifyd's rule); 5xx is transient; the rest permanent. docs/CONNECTORS.md shows this table.
 */
export const DISCORD_ERROR_RULES: Record<string, Rule> = {
  '10003': { kind: 'permanent', dead: true }, // Unknown channel
  '10015': { kind: 'permanent', dead: true }, // Unknown webhook
  '50027': { kind: 'permanent', dead: true }, // Invalid webhook token
  '50001': { kind: 'permanent', dead: true }, // Missing access
  '50013': { kind: 'permanent', advice: 'the webhook lacks a permission in that channel' }, // Missing permissions
  '50006': { kind: 'permanent', advice: 'give a body, a subject or chat.text' }, // Cannot send an empty message
  '50035': { kind: 'permanent' }, // Invalid form body
  '40005': { kind: 'permanent' }, // Request entity too large
  '220001': { kind: 'permanent', advice: 'a forum channel webhook needs a thread_id in its URL' }, // Forum webhook needs thread_name or thread_id
  '130000': { kind: 'transient' }, // API resource overloaded
};

export function classifyDiscordAnswer(answer: ProviderAnswer, now: Date = new Date()): ProviderError {
  const body = answer.json as { message?: string; code?: number | string; retry_after?: number } | undefined;
  const code = body?.code === undefined ? undefined : String(body.code);
  const rule = code ? DISCORD_ERROR_RULES[code] : undefined;
  const text = `discord ${code ?? `HTTP ${answer.status}`}: ${body?.message ?? (answer.text.slice(0, 300) || `HTTP ${answer.status}`)}${rule?.advice ? ` (${rule.advice})` : ''}`;
  if (answer.status === 429) {
    // The body's retry_after is more precise than the header's whole seconds; Discord asks for at least 1 s.
    const fromBody =
      typeof body?.retry_after === 'number' && Number.isFinite(body.retry_after)
        ? Math.ceil(body.retry_after * 1000)
        : undefined;
    const wait = fromBody ?? parseRetryAfter(answer.header('retry-after'), now);
    return ProviderError.rateLimited(text, wait === undefined ? undefined : Math.max(1000, wait), {
      providerCode: code,
    });
  }
  const kind = rule?.kind ?? (answer.status === 408 || answer.status >= 500 ? 'transient' : 'permanent');
  if (kind === 'transient')
    return ProviderError.transient(text, {
      retryAfterMs: parseRetryAfter(answer.header('retry-after'), now),
      providerCode: code,
    });
  // A known code decides; otherwise 401/403/404/410 mean the webhook is gone (notifyd's rule).
  const dead = rule ? (rule.dead ?? false) : [401, 403, 404, 410].includes(answer.status);
  return ProviderError.permanent(text, { deadRecipient: dead, providerCode: code });
}
