import type { OutboundMessage } from '../src/connectors/connector.js';
import { DiscordConnector } from '../src/connectors/chat/discord.connector.js';
import { SlackConnector } from '../src/connectors/chat/slack.connector.js';
import { TelegramConnector } from '../src/connectors/chat/telegram.connector.js';
import { DiscordFake, discordError } from './fakes/discord-fake.js';
import type { FakeAnswer } from './fakes/provider-fake.js';
import { SLACK_TOKEN, SlackFake, slackApiError, slackHookError } from './fakes/slack-fake.js';
import { TELEGRAM_TOKEN, TelegramFake, telegramError } from './fakes/telegram-fake.js';
import { outboundMessage, useProviderApp } from './helpers/provider-app.js';
import { ADMIN_KEY } from './helpers/test-app.js';

const message = (
  channel: 'slack' | 'discord' | 'telegram',
  recipient: string,
  extra: Partial<OutboundMessage> = {},
): OutboundMessage =>
  outboundMessage({
    jobId: '00000000-0000-4000-8000-000000000004',
    channel,
    recipient,
    subject: 'Deploy',
    body: 'api v1.42 is live',
    ...extra,
  });

type Outcome = [label: string, kind: string, dead: boolean, retryAfterMs?: number];
const outcome = (label: string, r: Awaited<ReturnType<SlackConnector['send']>>[number]): Outcome | [string, 'ok'] =>
  r.ok ? [label, 'ok'] : [label, r.error.kind, r.error.deadRecipient, r.error.retryAfterMs];

/** Slack, Discord and Telegram against local fakes that speak their APIs; webhook URLs through the SSRF guard. */
describe('chat connectors', () => {
  const slack = new SlackFake();
  const discord = new DiscordFake();
  const telegram = new TelegramFake();
  const app = useProviderApp({
    fakes: [slack, discord, telegram],
    loopbackOnly: true,
    env: () => ({
      SLACK_PROVIDER: 'slack',
      DISCORD_PROVIDER: 'discord',
      TELEGRAM_PROVIDER: 'telegram',
      SLACK_BOT_TOKEN: SLACK_TOKEN,
      SLACK_API_BASE: `${slack.url}/api`,
      SLACK_WEBHOOK_HOSTS: '127.0.0.1',
      // The private and metadata hosts are allowed by name so that the SSRF guard is what refuses them.
      DISCORD_WEBHOOK_HOSTS: '127.0.0.1,169.254.169.254,10.0.0.5',
      TELEGRAM_BOT_TOKEN: TELEGRAM_TOKEN,
      TELEGRAM_API_BASE: telegram.url,
      OUTBOUND_ALLOW_LOOPBACK: 'true',
      // 3 s: short enough for the stall rows, long enough for a cold first call on a loaded CI machine.
      OUTBOUND_TIMEOUT_MS: '3000',
    }),
    clearRequests: true,
  });
  const { job } = app;
  // The instance's bots post only to chats bound to the project (issue 18; test/security/chat-bindings).
  beforeAll(async () => {
    const bind = (channel: string, chats: string[]) =>
      app.t.http
        .put(`/v1/admin/projects/${app.project.id}/chat-bindings/${channel}`)
        .set('X-Api-Key', ADMIN_KEY)
        .send({ chats })
        .expect(200);
    await bind('slack', ['C0123ABCD']);
    await bind('telegram', ['-1001234567890', '@acme_ops', '555000111', '555000112']);
  });
  const send = (channel: string, to: string, extra: Record<string, unknown> = {}) =>
    app.send({ channels: [channel], to, subject: 'Deploy', body: 'api v1.42 is live', ...extra });

  describe('Slack', () => {
    it('maps every documented Slack error (Web API and incoming webhooks) to an outcome kind', async () => {
      const connector = app.t.notifyd.app.get(SlackConnector);
      type Row = [
        label: string,
        via: 'api' | 'hook',
        answer: FakeAnswer,
        kind: string,
        dead: boolean,
        retryAfterMs?: number,
      ];
      const api = (error: string, kind: string, dead = false): Row => [error, 'api', slackApiError(error), kind, dead];
      const rows: Row[] = [
        [
          'ratelimited (429)',
          'api',
          slackApiError('ratelimited', 429, { 'Retry-After': '30' }),
          'rate_limited',
          false,
          30_000,
        ],
        api('rate_limited', 'rate_limited'),
        api('service_unavailable', 'transient'),
        api('internal_error', 'transient'),
        api('fatal_error', 'transient'),
        api('request_timeout', 'transient'),
        api('rollup_error', 'transient'),
        api('channel_not_found', 'permanent', true),
        api('channel_is_archived', 'permanent', true),
        api('is_archived', 'permanent', true),
        api('not_in_channel', 'permanent', true),
        api('user_not_found', 'permanent', true),
        api('no_service', 'permanent', true),
        api('no_service_id', 'permanent', true),
        api('no_team', 'permanent', true),
        api('team_disabled', 'permanent', true),
        api('channel_disabled', 'permanent', true),
        api('no_active_hooks', 'permanent', true),
        api('invalid_token', 'permanent', true),
        api('invalid_auth', 'permanent'),
        api('not_authed', 'permanent'),
        api('token_revoked', 'permanent'),
        api('token_expired', 'permanent'),
        api('account_inactive', 'permanent'),
        api('missing_scope', 'permanent'),
        api('action_prohibited', 'permanent'),
        api('posting_to_general_channel_denied', 'permanent'),
        api('restricted_action', 'permanent'),
        api('invalid_payload', 'permanent'),
        api('invalid_arguments', 'permanent'),
        api('msg_too_long', 'permanent'),
        api('no_text', 'permanent'),
        api('too_many_attachments', 'permanent'),
        api('some_future_error', 'permanent'),
        ['5xx without a body', 'api', { status: 503, text: '' }, 'transient', false],
        ['webhook 404 channel_not_found', 'hook', slackHookError(404, 'channel_not_found'), 'permanent', true],
        ['webhook 410 channel_is_archived', 'hook', slackHookError(410, 'channel_is_archived'), 'permanent', true],
        ['webhook 403 action_prohibited', 'hook', slackHookError(403, 'action_prohibited'), 'permanent', false],
        ['webhook 400 invalid_payload', 'hook', slackHookError(400, 'invalid_payload'), 'permanent', false],
        ['webhook 404 without a known string', 'hook', slackHookError(404, 'Not Found'), 'permanent', true],
        [
          'webhook 429',
          'hook',
          slackHookError(429, 'rate_limited', { 'Retry-After': '2' }),
          'rate_limited',
          false,
          2000,
        ],
        ['webhook 500 rollup_error', 'hook', slackHookError(500, 'rollup_error'), 'transient', false],
        [
          'webhook 302 (redirects are not followed)',
          'hook',
          { status: 302, text: '', headers: { location: 'https://example.com/' } },
          'permanent',
          false,
        ],
        ['webhook stall past OUTBOUND_TIMEOUT_MS', 'hook', 'stall', 'transient', false],
      ];
      const seen = [];
      for (const [i, [label, via, answer]] of rows.entries()) {
        let recipient: string;
        if (via === 'api') {
          recipient = `C0TABLE${i}`;
          slack.channels.set(recipient, answer);
        } else {
          recipient = `${slack.url}/services/T000/B${i}/secret`;
          slack.hooks.set(`/services/T000/B${i}/secret`, answer);
        }
        seen.push(outcome(label, (await connector.send([message('slack', recipient)]))[0]));
      }
      expect(seen).toEqual(rows.map(([label, , , kind, dead, retry]) => [label, kind, dead, retry]));
      expect(slack.requests).toHaveLength(rows.length);
    });

    it('end to end: chat.postMessage with the bot token, and an incoming webhook, each get exactly Slack mrkdwn', async () => {
      const viaApi = await send('slack', 'C0123ABCD', {
        url: 'https://acme.example/deploys/42',
        body: 'api <!channel> & co',
      });
      const hook = `${slack.url}/services/T000/B000/XXXXSECRET`;
      const viaHook = await send('slack', hook, { chat: { text: 'Deploy *done*' } });
      await app.t.worker.drainOnce();
      const apiCall = slack.requests.find((r) => r.path === '/api/chat.postMessage')!;
      expect(apiCall.headers.authorization).toBe(`Bearer ${SLACK_TOKEN}`);
      expect(JSON.parse(apiCall.raw)).toEqual({
        channel: 'C0123ABCD',
        text: '*Deploy*\napi &lt;!channel&gt; &amp; co\n<https://acme.example/deploys/42|Open>',
        unfurl_links: false,
      });
      const hookCall = slack.requests.find((r) => r.path === '/services/T000/B000/XXXXSECRET')!;
      expect(hookCall.headers.authorization).toBeUndefined();
      expect(JSON.parse(hookCall.raw)).toEqual({ text: 'Deploy *done*' });
      expect(await job(viaApi)).toMatchObject({
        status: 'sent',
        provider: 'slack',
        provider_message_id: expect.stringMatching(/^\d+\.\d{6}$/),
      });
      expect(await job(viaHook)).toMatchObject({ status: 'sent', provider: 'slack' });
    });

    it('a webhook URL on a host that is not Slack is refused at the door (422), without any request', async () => {
      const res = await app.t.http
        .post('/v1/send')
        .set('X-Api-Key', app.project.key)
        .send({ channels: ['slack'], to: 'https://evil.example/services/T/B/X', body: 'x' });
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ error: 'invalid_recipient', field: 'to' });
      expect(res.body.message).toMatch(/not a Slack incoming-webhook URL.*SLACK_WEBHOOK_HOSTS/);
      await app.t.worker.drainOnce();
      expect(slack.requests).toHaveLength(0);
      expect(app.connectionAttempts).not.toContain('evil.example');
    });
  });

  describe('Discord', () => {
    it('maps every documented Discord answer to an outcome kind (429 retry_after from the body, at least 1 s)', async () => {
      const connector = app.t.notifyd.app.get(DiscordConnector);
      type Row = [label: string, answer: FakeAnswer, kind: string, dead: boolean, retryAfterMs?: number];
      const rows: Row[] = [
        [
          '429 retry_after 2.5',
          discordError(
            429,
            0,
            'You are being rate limited.',
            { retry_after: 2.5, global: false },
            { 'Retry-After': '3' },
          ),
          'rate_limited',
          false,
          2500,
        ],
        [
          '429 retry_after 0.2 (floored at 1 s)',
          discordError(429, 0, 'You are being rate limited.', { retry_after: 0.2, global: false }),
          'rate_limited',
          false,
          1000,
        ],
        ['429 header only', { status: 429, text: '', headers: { 'Retry-After': '4' } }, 'rate_limited', false, 4000],
        ['10003 unknown channel', discordError(404, 10003, 'Unknown Channel'), 'permanent', true],
        ['10015 unknown webhook', discordError(404, 10015, 'Unknown Webhook'), 'permanent', true],
        ['50027 invalid webhook token', discordError(401, 50027, 'Invalid Webhook Token'), 'permanent', true],
        ['50001 missing access', discordError(403, 50001, 'Missing Access'), 'permanent', true],
        ['50013 missing permissions', discordError(403, 50013, 'Missing Permissions'), 'permanent', false],
        ['50006 empty message', discordError(400, 50006, 'Cannot send an empty message'), 'permanent', false],
        ['50035 invalid form body', discordError(400, 50035, 'Invalid Form Body'), 'permanent', false],
        ['40005 too large', discordError(413, 40005, 'Request entity too large'), 'permanent', false],
        [
          '220001 forum needs a thread',
          discordError(400, 220001, 'Webhooks posted to forum channels must have a thread_name or thread_id'),
          'permanent',
          false,
        ],
        [
          '130000 overloaded',
          discordError(503, 130000, 'API resource is currently overloaded. Try again a little later'),
          'transient',
          false,
        ],
        ['410 gone', { status: 410, text: '' }, 'permanent', true],
        ['403 without a code', { status: 403, text: '' }, 'permanent', true],
        ['502', { status: 502, text: 'Bad Gateway' }, 'transient', false],
        ['other 400', discordError(400, 99999, 'Something else'), 'permanent', false],
        ['stall past OUTBOUND_TIMEOUT_MS', 'stall', 'transient', false],
      ];
      const seen = [];
      for (const [i, [label, answer]] of rows.entries()) {
        const id = `9000000000000${String(i).padStart(5, '0')}`;
        discord.hooks.set(id, answer);
        seen.push(
          outcome(label, (await connector.send([message('discord', `${discord.url}/api/webhooks/${id}/tok-en`)]))[0]),
        );
      }
      expect(seen).toEqual(rows.map(([label, , kind, dead, retry]) => [label, kind, dead, retry]));
      expect(discord.requests).toHaveLength(rows.length);
    });

    it('end to end: an embed (or content for chat.text) with mentions off, ?wait=true, the message id stored', async () => {
      const hook = `${discord.url}/api/webhooks/1180000000000000042/aBcD-token`;
      const embed = await send('discord', hook, {
        url: 'https://acme.example/deploys/42',
        body: '@everyone api v1.42 is live',
      });
      const content = await send('discord', `${hook}?thread_id=77`, { chat: { text: 'short and plain' } });
      await app.t.worker.drainOnce();
      expect(discord.requests).toHaveLength(2);
      const byBody = (has: string) => discord.requests.find((r) => has in r.body)!;
      expect(byBody('embeds').query.get('wait')).toBe('true');
      expect(JSON.parse(byBody('embeds').raw)).toEqual({
        embeds: [
          { title: 'Deploy', description: '@everyone api v1.42 is live', url: 'https://acme.example/deploys/42' },
        ],
        allowed_mentions: { parse: [] },
      });
      expect(Object.fromEntries(byBody('content').query)).toEqual({ thread_id: '77', wait: 'true' });
      expect(JSON.parse(byBody('content').raw)).toEqual({
        content: 'short and plain',
        allowed_mentions: { parse: [] },
      });
      expect(await job(embed)).toMatchObject({
        status: 'sent',
        provider: 'discord',
        provider_message_id: expect.stringMatching(/^\d{19}$/),
      });
      expect(await job(content)).toMatchObject({ status: 'sent' });
    });

    it('end to end: a 429 pauses the discord lane for retry_after without using an attempt', async () => {
      discord.hooks.set(
        '1180000000000000429',
        discordError(429, 0, 'You are being rate limited.', { retry_after: 30, global: false }),
      );
      const id = await send('discord', `${discord.url}/api/webhooks/1180000000000000429/tok`);
      await app.t.worker.drainOnce();
      expect(await job(id)).toMatchObject({ status: 'pending', attempts: 0 });
      const [lane] = await app.t.db.sql(
        // The pause as written (retry_after 30), not what is left of it after a drain on a loaded machine.
        `SELECT pause_kind, paused_until - paused_at >= interval '30 seconds' AS long_enough FROM pacing_lanes WHERE lane_key = 'discord:discord'`,
      );
      expect(lane).toEqual({ pause_kind: 'rate_limited', long_enough: true });
      await app.t.db.sql(`UPDATE pacing_lanes SET paused_until = now() WHERE lane_key = 'discord:discord'`);
    });

    it('SSRF: webhook URLs on metadata, private or non-Discord hosts are refused before any connection', async () => {
      const targets = [
        'http://169.254.169.254/api/webhooks/1/x',
        'http://10.0.0.5/api/webhooks/1/x',
        `${discord.url}/not-a-webhook`,
        'https://example.com/api/webhooks/1/x',
      ];
      const seen = [];
      for (const url of targets)
        seen.push(outcome(url, (await app.t.notifyd.app.get(DiscordConnector).send([message('discord', url)]))[0]));
      expect(seen).toEqual(targets.map((url) => [url, 'permanent', expect.any(Boolean), undefined]));
      expect(app.connectionAttempts.filter((a) => !/^(127\.0\.0\.1|localhost|::1)$/.test(a))).toEqual([]);
      expect(discord.requests).toHaveLength(0);
    });
  });

  describe('Telegram', () => {
    it('maps every documented Bot API refusal to an outcome kind (parameters.retry_after, dead chats)', async () => {
      const connector = app.t.notifyd.app.get(TelegramConnector);
      type Row = [label: string, answer: FakeAnswer, kind: string, dead: boolean, retryAfterMs?: number];
      const rows: Row[] = [
        [
          '429 parameters.retry_after',
          telegramError(429, 'Too Many Requests: retry after 5', { retry_after: 5 }),
          'rate_limited',
          false,
          5000,
        ],
        ['429 header only', { status: 429, text: '', headers: { 'Retry-After': '3' } }, 'rate_limited', false, 3000],
        ['403 blocked by the user', telegramError(403, 'Forbidden: bot was blocked by the user'), 'permanent', true],
        ['403 user is deactivated', telegramError(403, 'Forbidden: user is deactivated'), 'permanent', true],
        [
          '403 kicked from the group',
          telegramError(403, 'Forbidden: bot was kicked from the group chat'),
          'permanent',
          true,
        ],
        [
          '403 not a member',
          telegramError(403, 'Forbidden: bot is not a member of the channel chat'),
          'permanent',
          true,
        ],
        [
          "403 can't initiate",
          telegramError(403, "Forbidden: bot can't initiate conversation with a user"),
          'permanent',
          true,
        ],
        ['400 chat not found', telegramError(400, 'Bad Request: chat not found'), 'permanent', true],
        ['400 chat_id is empty', telegramError(400, 'Bad Request: chat_id is empty'), 'permanent', true],
        ['400 no rights', telegramError(400, 'Bad Request: have no rights to send a message'), 'permanent', true],
        ['400 group deleted', telegramError(403, 'Forbidden: the group chat was deleted'), 'permanent', true],
        ['400 PEER_ID_INVALID', telegramError(400, 'Bad Request: PEER_ID_INVALID'), 'permanent', true],
        [
          '400 upgraded to a supergroup',
          telegramError(400, 'Bad Request: group chat was upgraded to a supergroup chat', {
            migrate_to_chat_id: -1001234567890,
          }),
          'permanent',
          true,
        ],
        ['400 message too long', telegramError(400, 'Bad Request: message is too long'), 'permanent', false],
        ['400 thread not found', telegramError(400, 'Bad Request: message thread not found'), 'permanent', false],
        ['401 bad token', telegramError(401, 'Unauthorized'), 'permanent', false],
        ['404 bad token path', telegramError(404, 'Not Found'), 'permanent', false],
        ['500', telegramError(500, 'Internal Server Error'), 'transient', false],
        ['502 html', { status: 502, text: '<html>Bad Gateway</html>' }, 'transient', false],
        ['stall past OUTBOUND_TIMEOUT_MS', 'stall', 'transient', false],
      ];
      const seen = [];
      for (const [i, [label, answer]] of rows.entries()) {
        const chat = String(700000 + i);
        telegram.chats.set(chat, answer);
        seen.push(outcome(label, (await connector.send([message('telegram', chat)]))[0]));
      }
      expect(seen).toEqual(rows.map(([label, , kind, dead, retry]) => [label, kind, dead, retry]));
      expect(telegram.requests).toHaveLength(rows.length);
      const [migrated] = await connector.send([message('telegram', String(700012))]);
      expect(!migrated.ok && migrated.error.message).toMatch(
        /supergroup -1001234567890: update the subscriber's telegram_chat_id/,
      );
    });

    it('end to end: sendMessage with the token in the path, plain text, button, forum topic; message_id stored', async () => {
      const id = await send('telegram', '-1001234567890', {
        url: 'https://acme.example/deploys/42',
        chat: { button: 'View deploy', telegram_thread_id: 42 },
      });
      const plain = await send('telegram', '@acme_ops', { chat: { text: 'plain <b>text</b>' } });
      await app.t.worker.drainOnce();
      expect(telegram.requests.map((r) => r.path)).toEqual([
        `/bot${TELEGRAM_TOKEN}/sendMessage`,
        `/bot${TELEGRAM_TOKEN}/sendMessage`,
      ]);
      const byChat = (chat: unknown) => JSON.parse(telegram.requests.find((r) => r.body.chat_id === chat)!.raw);
      expect(byChat(-1001234567890)).toEqual({
        chat_id: -1001234567890,
        text: 'Deploy\n\napi v1.42 is live',
        link_preview_options: { is_disabled: true },
        reply_markup: { inline_keyboard: [[{ text: 'View deploy', url: 'https://acme.example/deploys/42' }]] },
        message_thread_id: 42,
      });
      expect(byChat('@acme_ops')).toEqual({
        chat_id: '@acme_ops',
        text: 'plain <b>text</b>',
        link_preview_options: { is_disabled: true },
      });
      expect(await job(id)).toMatchObject({
        status: 'sent',
        provider: 'telegram',
        provider_message_id: expect.stringMatching(/^\d+$/),
      });
      expect(await job(plain)).toMatchObject({ status: 'sent' });
    });

    it('end to end: a chat that blocked the bot fails the job, and the error never carries the bot token', async () => {
      telegram.chats.set('555000111', telegramError(403, 'Forbidden: bot was blocked by the user'));
      const id = await send('telegram', '555000111');
      await app.t.worker.drainOnce();
      const row = await job(id);
      expect(row).toMatchObject({ status: 'failed', attempts: 1 });
      expect(row.error).toBe('telegram 403: Forbidden: bot was blocked by the user');
      const stalled = await send('telegram', '555000112');
      telegram.chats.set('555000112', 'stall');
      await app.t.worker.drainOnce();
      expect(await job(stalled)).toMatchObject({ status: 'retry' });
      expect((await job(stalled)).error).not.toContain(TELEGRAM_TOKEN.split(':')[1]);
    });
  });
});
