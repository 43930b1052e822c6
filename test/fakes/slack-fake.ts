import { type FakeAnswer, ProviderFake, type RecordedRequest } from './provider-fake.js';

export const SLACK_TOKEN = 'xoxb-1234-5678-slacktesttoken';

/** A Web API refusal: HTTP 200 with ok:false (429 for rate limits, with Retry-After). */
export const slackApiError = (error: string, status = 200, headers?: Record<string, string>): FakeAnswer => ({
  status,
  json: { ok: false, error },
  headers,
});
/** An incoming-webhook refusal: the error string as plain text. */
export const slackHookError = (status: number, error: string, headers?: Record<string, string>): FakeAnswer => ({
  status,
  text: error,
  headers,
});

/**
 * Slack: `POST /api/chat.postMessage` (Bearer bot token, JSON; answers `{ok, ts}` or
 * `{ok:false, error}`) and incoming webhooks under `/services/…` (answer `ok`, or a plain-text
 * error with a 4xx). Scripted by channel id (`channels`) and webhook path (`hooks`).
 */
export class SlackFake extends ProviderFake {
  readonly channels = new Map<string, FakeAnswer>();
  readonly hooks = new Map<string, FakeAnswer>();
  /** Bot tokens the fake knows (the instance's; a spec adds a project's own app). */
  readonly tokens = new Set([SLACK_TOKEN]);
  private sequence = 100;

  protected answer(request: RecordedRequest): FakeAnswer {
    if (request.path.startsWith('/services/')) {
      if (!request.body.text) return slackHookError(400, 'no_text');
      return this.hooks.get(request.path) ?? { status: 200, text: 'ok' };
    }
    if (request.path !== '/api/chat.postMessage') return { status: 404, text: 'Not Found' };
    if (!this.tokens.has(String(request.headers.authorization).replace(/^Bearer /, '')))
      return slackApiError('invalid_auth');
    const { channel, text } = request.body as { channel?: string; text?: string };
    if (!channel) return slackApiError('channel_not_found');
    if (!text) return slackApiError('no_text');
    const scripted = this.channels.get(channel);
    if (scripted) return scripted;
    const ts = `1764460800.${String(++this.sequence).padStart(6, '0')}`;
    return {
      status: 200,
      json: { ok: true, channel, ts, message: { type: 'message', subtype: 'bot_message', text, ts } },
    };
  }
}
