import { parseRetryAfter } from '../../http-outcome.js';
import type { ProviderAnswer } from '../../json-http.js';
import { ProviderError } from '../../provider-error.js';

/**
 * Bot API descriptions that mean the chat will never take a message from this bot again
 * (blocked, deleted account, kicked, never started, gone). Telegram has no error codes beyond
 * the HTTP-like `error_code`, so the description decides. docs/CONNECTORS.md shows the table.
 */
export const TELEGRAM_DEAD_CHAT = [
  'chat not found',
  'bot was blocked by the user',
  'user is deactivated',
  'bot was kicked',
  'bot is not a member',
  "bot can't initiate conversation with a user",
  'chat_id is empty',
  'have no rights to send',
  'group chat was deleted',
  'peer_id_invalid',
];

interface TelegramError {
  ok?: boolean;
  error_code?: number;
  description?: string;
  parameters?: { retry_after?: number; migrate_to_chat_id?: number };
}

/**
 * A Bot API refusal as an outcome kind: 429 → rate limited for `parameters.retry_after` (or
 * Retry-After); a dead-chat description, or a group upgraded to a supergroup (the old id is
 * gone: the message names the new one) → permanent and dead; 401/404 → permanent, the token
 * is wrong; ≥ 500 → transient; the rest permanent.
 */
export function classifyTelegramAnswer(answer: ProviderAnswer, now: Date = new Date()): ProviderError {
  const body = answer.json as TelegramError | undefined;
  const status = body?.error_code ?? answer.status;
  const description = body?.description ?? (answer.text.slice(0, 300) || `HTTP ${answer.status}`);
  const text = `telegram ${status}: ${description}`;
  const providerCode = String(status);
  if (status === 429) {
    const seconds = body?.parameters?.retry_after;
    const wait =
      typeof seconds === 'number' && seconds >= 0 ? seconds * 1000 : parseRetryAfter(answer.header('retry-after'), now);
    return ProviderError.rateLimited(text, wait, { providerCode });
  }
  const migratedTo = body?.parameters?.migrate_to_chat_id;
  if (migratedTo !== undefined) {
    return ProviderError.permanent(
      `${text} (the group is now the supergroup ${migratedTo}: update the subscriber's telegram_chat_id)`,
      { deadRecipient: true, providerCode },
    );
  }
  if (status >= 500 || answer.status >= 500) return ProviderError.transient(text, { providerCode });
  if (status === 401 || status === 404)
    return ProviderError.permanent(`${text} (check TELEGRAM_BOT_TOKEN)`, { providerCode });
  const lower = description.toLowerCase();
  const dead = TELEGRAM_DEAD_CHAT.some((d) => lower.includes(d));
  return ProviderError.permanent(text, { deadRecipient: dead, providerCode });
}
