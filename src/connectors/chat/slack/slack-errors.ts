import { parseRetryAfter } from '../../http-outcome.js';
import type { ProviderAnswer } from '../../json-http.js';
import { ProviderError } from '../../provider-error.js';

type Rule = { kind: 'rate_limited' | 'transient' | 'permanent'; dead?: boolean; advice?: string };

/**
 * Slack error strings: `error` of a Web API answer (`ok: false`, HTTP 200) and the plain-text
 * body of an incoming-webhook refusal (https://api.slack.com/changelog/2016-05-17-changes-to-errors-for-incoming-webhooks).
 * Unlisted errors fall back to the HTTP status (429 rate limited, 5xx transient, else permanent).
 * docs/CONNECTORS.md shows this table; keep them in step.
 */
export const SLACK_ERROR_RULES: Record<string, Rule> = {
  ratelimited: { kind: 'rate_limited' },
  rate_limited: { kind: 'rate_limited' },
  service_unavailable: { kind: 'transient' },
  internal_error: { kind: 'transient' },
  fatal_error: { kind: 'transient' },
  request_timeout: { kind: 'transient' },
  rollup_error: { kind: 'transient' },
  channel_not_found: { kind: 'permanent', dead: true },
  channel_is_archived: { kind: 'permanent', dead: true },
  is_archived: { kind: 'permanent', dead: true },
  not_in_channel: { kind: 'permanent', dead: true, advice: 'invite the bot to the channel' },
  user_not_found: { kind: 'permanent', dead: true },
  no_service: { kind: 'permanent', dead: true },
  no_service_id: { kind: 'permanent', dead: true },
  no_team: { kind: 'permanent', dead: true },
  team_disabled: { kind: 'permanent', dead: true },
  channel_disabled: { kind: 'permanent', dead: true },
  no_active_hooks: { kind: 'permanent', dead: true },
  invalid_token: { kind: 'permanent', dead: true }, // a webhook URL whose token was revoked
  invalid_auth: { kind: 'permanent', advice: 'check SLACK_BOT_TOKEN' },
  not_authed: { kind: 'permanent', advice: 'set SLACK_BOT_TOKEN' },
  token_revoked: { kind: 'permanent', advice: 'SLACK_BOT_TOKEN was revoked; reinstall the app' },
  token_expired: { kind: 'permanent', advice: 'SLACK_BOT_TOKEN expired' },
  account_inactive: { kind: 'permanent', advice: 'the bot user is deactivated' },
  missing_scope: { kind: 'permanent', advice: 'add the chat:write scope to the Slack app' },
  action_prohibited: { kind: 'permanent' },
  posting_to_general_channel_denied: { kind: 'permanent' },
  restricted_action: { kind: 'permanent' },
  invalid_payload: { kind: 'permanent' },
  invalid_arguments: { kind: 'permanent' },
  msg_too_long: { kind: 'permanent', advice: 'shorten chat.text or the body' },
  no_text: { kind: 'permanent' },
  too_many_attachments: { kind: 'permanent' },
};

/**
 * A Slack refusal as an outcome kind. `error` is the Web API's `error` field or the webhook's
 * plain-text body; 404/410 from a webhook mean it is gone (dead) even without a known string.
 */
export function classifySlackAnswer(
  answer: ProviderAnswer,
  error: string | undefined,
  now: Date = new Date(),
): ProviderError {
  const code = error?.trim().slice(0, 100) || undefined;
  const rule = code ? SLACK_ERROR_RULES[code] : undefined;
  const text = `slack ${code ?? `HTTP ${answer.status}`}${code ? ` (HTTP ${answer.status})` : ''}${rule?.advice ? `: ${rule.advice}` : ''}`;
  const retryAfterMs = parseRetryAfter(answer.header('retry-after'), now);
  const kind =
    rule?.kind ??
    (answer.status === 429
      ? 'rate_limited'
      : answer.status === 408 || answer.status >= 500
        ? 'transient'
        : 'permanent');
  if (kind === 'rate_limited' || answer.status === 429)
    return ProviderError.rateLimited(text, retryAfterMs, { providerCode: code });
  if (kind === 'transient') return ProviderError.transient(text, { retryAfterMs, providerCode: code });
  const dead = rule ? (rule.dead ?? false) : answer.status === 404 || answer.status === 410;
  return ProviderError.permanent(text, { deadRecipient: dead, providerCode: code });
}
