import { randomBytes } from 'node:crypto';
import { SLACK_TOKEN, SlackFake } from '../fakes/slack-fake.js';
import { TELEGRAM_TOKEN, TelegramFake } from '../fakes/telegram-fake.js';
import { connectMcp, resultText, structured } from '../helpers/mcp-client.js';
import { ADMIN_KEY, READONLY_KEY, startTestApp, type TestApp } from '../helpers/test-app.js';

/** A project's own bots (per-project providers): tokens the fakes accept besides the instance's. */
const OWN_TELEGRAM_TOKEN = '987654321:BBHdqTcvCH1vGWJxfSeofSAs0K5PALDown';
const OWN_SLACK_TOKEN = 'xoxb-9999-8888-projectownbot';

/**
 * Issue 18: the instance-wide Telegram and Slack bots post only to chats an operator bound to
 * the sending project. Another project naming a bound chat (directly, through a subscriber, in
 * a batch) is refused with a 422 before anything is queued, and the provider sees nothing; a
 * binding removed after the send stops the job in the worker. A project with its own bot, and
 * Slack incoming-webhook URLs (capability URLs), are not restricted.
 */
describe('chat bindings (instance-wide bots post only to chats bound to the project)', () => {
  const telegram = new TelegramFake();
  const slack = new SlackFake();
  let t: TestApp;
  let a: { id: string; key: string };
  let b: { id: string; key: string };
  let own: { id: string; key: string };

  const admin = (method: 'get' | 'put' | 'delete', path: string, key = ADMIN_KEY) =>
    t.http[method](`/v1/admin/projects${path}`).set('X-Api-Key', key);
  const bind = (project: string, channel: string, chats: unknown) =>
    admin('put', `/${project}/chat-bindings/${channel}`).send({ chats });
  const send = (project: { key: string }, body: Record<string, unknown>) =>
    t.http
      .post('/v1/send')
      .set('X-Api-Key', project.key)
      .send({ subject: 'Deploy', body: 'api v1.42 is live', ...body });
  const job = async (id: string) =>
    (
      await t.db.sql<{ status: string; provider: string | null; error: string | null }>(
        `SELECT status, provider, error FROM jobs WHERE id = $1`,
        [id],
      )
    )[0];
  const jobCount = async () => Number((await t.db.sql<{ n: string }>(`SELECT count(*) AS n FROM jobs`))[0].n);

  beforeAll(async () => {
    await Promise.all([telegram.start(), slack.start()]);
    telegram.tokens.add(OWN_TELEGRAM_TOKEN);
    slack.tokens.add(OWN_SLACK_TOKEN);
    t = await startTestApp({
      env: {
        TELEGRAM_PROVIDER: 'telegram',
        TELEGRAM_BOT_TOKEN: TELEGRAM_TOKEN,
        TELEGRAM_API_BASE: telegram.url,
        SLACK_PROVIDER: 'slack',
        SLACK_BOT_TOKEN: SLACK_TOKEN,
        SLACK_API_BASE: `${slack.url}/api`,
        SLACK_WEBHOOK_HOSTS: '127.0.0.1',
        OUTBOUND_ALLOW_LOOPBACK: 'true',
        NOTIFYD_SECRET_KEY: randomBytes(32).toString('base64'),
      },
    });
    a = await t.createProject();
    b = await t.createProject();
    own = await t.createProject();
  });
  afterAll(async () => {
    await t?.close();
    await Promise.all([telegram.stop(), slack.stop()]);
  });
  beforeEach(() => {
    telegram.requests.splice(0);
    slack.requests.splice(0);
  });

  it('an operator binds chats to a project; the read-only key reads them; bad chats are 422 naming the field', async () => {
    const put = await bind(a.id, 'telegram', ['-1001111111111', '@Acme_Ops']);
    expect(put.status).toBe(200);
    expect(put.body).toEqual({ project_id: a.id, channel: 'telegram', chats: ['-1001111111111', '@acme_ops'] });
    expect((await bind(a.id, 'slack', ['C0AAAAAAA'])).status).toBe(200);
    const list = await admin('get', `/${a.id}/chat-bindings`, READONLY_KEY);
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ project_id: a.id, required: true });
    expect(list.body.bindings.map((x: { channel: string; chat: string }) => `${x.channel}:${x.chat}`)).toEqual([
      'slack:C0AAAAAAA',
      'telegram:-1001111111111',
      'telegram:@acme_ops',
    ]);

    const bad = await bind(a.id, 'telegram', ['not a chat']);
    expect([bad.status, bad.body.message]).toEqual([422, expect.stringMatching(/chats\.0/)]);
    const discord = await bind(a.id, 'discord', ['https://discord.com/api/webhooks/1/x']);
    expect([discord.status, discord.body.message]).toEqual([
      422,
      expect.stringMatching(/discord.*webhook URL.*no binding/i),
    ]);
    expect((await bind('zz-unknown', 'telegram', ['-100'])).status).toBe(404);
    expect((await admin('put', `/${a.id}/chat-bindings/telegram`, READONLY_KEY).send({ chats: [] })).status).toBe(403);
  });

  it('project A sends to its bound chats through the instance bot', async () => {
    const tg = await send(a, { channels: ['telegram'], to: '-1001111111111' });
    const named = await send(a, { channels: ['telegram'], to: '@acme_ops' });
    const sl = await send(a, { channels: ['slack'], to: 'C0AAAAAAA' });
    expect([tg.status, named.status, sl.status]).toEqual([200, 200, 200]);
    await t.worker.drainOnce();
    expect(telegram.requests.map((r) => r.body.chat_id)).toEqual(expect.arrayContaining([-1001111111111, '@acme_ops']));
    expect(slack.requests.map((r) => r.body.channel)).toEqual(['C0AAAAAAA']);
    for (const res of [tg, named, sl]) expect(await job(res.body.job_ids[0])).toMatchObject({ status: 'sent' });
  });

  it('project B cannot reach A’s chats: 422 naming the field and both fixes, nothing queued, the fakes see nothing', async () => {
    const before = await jobCount();
    const direct = await send(b, { channels: ['telegram'], to: '-1001111111111' });
    expect(direct.status).toBe(422);
    expect(direct.body).toMatchObject({ error: 'chat_not_bound' });
    expect(direct.body.message).toMatch(/^to: /);
    expect(direct.body.message).toContain(`PUT /v1/admin/projects/${b.id}/chat-bindings/telegram`);
    expect(direct.body.message).toContain(`PUT /v1/admin/projects/${b.id}/providers/telegram`);
    expect((await send(b, { channels: ['slack'], to: 'C0AAAAAAA' })).status).toBe(422);
    // The same chat written another way (leading zeros) is the same chat.
    expect((await send(b, { channels: ['telegram'], to: '-01001111111111' })).status).toBe(422);

    // Through a subscriber's address book, on /send and /batch.
    const sub = await t.http
      .post('/v1/subscribers')
      .set('X-Api-Key', b.key)
      .send({ id: 'ops', data: { telegram_chat_id: '-1001111111111', slack: 'C0AAAAAAA' } });
    expect(sub.status).toBeLessThan(300);
    const viaSubscriber = await send(b, { channels: ['telegram'], subscriber_id: 'ops' });
    expect([viaSubscriber.status, viaSubscriber.body.error, viaSubscriber.body.message]).toEqual([
      422,
      'chat_not_bound',
      expect.stringMatching(/data\.telegram_chat_id/),
    ]);
    const batch = await t.http
      .post('/v1/batch')
      .set('X-Api-Key', b.key)
      .send({ channels: ['slack'], subscribers: ['ops'], subject: 'Deploy', body: 'x' });
    expect([batch.status, batch.body.error]).toEqual([422, 'chat_not_bound']);

    await t.worker.drainOnce();
    expect(await jobCount()).toBe(before);
    expect(telegram.requests).toEqual([]);
    expect(slack.requests).toEqual([]);
  });

  it('with no bindings at all, the instance bot refuses every project (secure by default)', async () => {
    const res = await send(b, { channels: ['telegram'], to: '-1009999999999' });
    expect([res.status, res.body.error]).toEqual([422, 'chat_not_bound']);
  });

  it('a binding removed after the send stops the job in the worker, before any provider call', async () => {
    const queued = await send(a, { channels: ['slack'], to: 'C0AAAAAAA' });
    expect(queued.status).toBe(200);
    const removed = await admin('delete', `/${a.id}/chat-bindings/slack`);
    expect([removed.status, removed.body]).toEqual([200, { success: true, removed: 1 }]);
    await t.worker.drainOnce();
    expect(await job(queued.body.job_ids[0])).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/not bound to project/),
    });
    expect(slack.requests).toEqual([]);
  });

  it('Slack incoming-webhook URLs are capability URLs: no binding needed', async () => {
    const hook = `${slack.url}/services/T000/B000/XXXXSECRET`;
    const res = await send(b, { channels: ['slack'], to: hook });
    expect(res.status).toBe(200);
    await t.worker.drainOnce();
    expect(slack.requests.map((r) => r.path)).toEqual(['/services/T000/B000/XXXXSECRET']);
    expect(await job(res.body.job_ids[0])).toMatchObject({ status: 'sent' });
  });

  it('a project with its own bot credentials is not restricted, and its messages go through its own bot', async () => {
    const tg = await admin('put', `/${own.id}/providers/telegram`).send({
      provider: 'telegram',
      settings: { bot_token: OWN_TELEGRAM_TOKEN },
    });
    expect([tg.status, tg.body.settings]).toEqual([200, { bot_token: expect.stringMatching(/^…/) }]);
    const sl = await admin('put', `/${own.id}/providers/slack`).send({
      provider: 'slack',
      settings: { bot_token: OWN_SLACK_TOKEN },
    });
    expect(sl.status).toBe(200);
    const toA = await send(own, { channels: ['telegram'], to: '-1001111111111' });
    const anywhere = await send(own, { channels: ['slack'], to: 'C0ANYWHERE' });
    expect([toA.status, anywhere.status]).toEqual([200, 200]);
    await t.worker.drainOnce();
    expect(telegram.requests.map((r) => r.path)).toEqual([`/bot${OWN_TELEGRAM_TOKEN}/sendMessage`]);
    expect(slack.requests.map((r) => r.headers.authorization)).toEqual([`Bearer ${OWN_SLACK_TOKEN}`]);
    expect(await job(toA.body.job_ids[0])).toMatchObject({ status: 'sent' });
    expect(await job(anywhere.body.job_ids[0])).toMatchObject({ status: 'sent' });
  });

  it('agents manage bindings over MCP with the same rules; send_test refuses an unbound chat too', async () => {
    const admin = await connectMcp(t.url, ADMIN_KEY);
    const reader = await connectMcp(t.url, READONLY_KEY);
    try {
      const set = await admin.callTool({
        name: 'set_chat_bindings',
        arguments: { project_id: b.id, channel: 'telegram', chats: ['-0100333', '-100333'] },
      });
      expect(structured(set)).toEqual({ project_id: b.id, channel: 'telegram', chats: ['-100333'] });
      const listed = structured(await reader.callTool({ name: 'list_chat_bindings', arguments: { project_id: b.id } }));
      expect(listed).toMatchObject({
        project_id: b.id,
        required: true,
        bindings: [{ channel: 'telegram', chat: '-100333' }],
      });
      const bad = await admin.callTool({
        name: 'set_chat_bindings',
        arguments: { project_id: b.id, channel: 'telegram', chats: ['x y'] },
      });
      expect([bad.isError, resultText(bad)]).toEqual([
        true,
        expect.stringMatching(/chats\.0 must be a Telegram chat id/),
      ]);
      const denied = await reader.callTool({
        name: 'set_chat_bindings',
        arguments: { project_id: b.id, channel: 'telegram', chats: [] },
      });
      expect(denied.isError).toBe(true);

      const test = await t.http
        .post('/v1/admin/send-test')
        .set('X-Api-Key', ADMIN_KEY)
        .send({ project_id: b.id, channel: 'telegram', to: '-1001111111111' });
      expect([test.status, test.body.error]).toEqual([422, 'chat_not_bound']);
      const bound = await t.http
        .post('/v1/admin/send-test')
        .set('X-Api-Key', ADMIN_KEY)
        .send({ project_id: b.id, channel: 'telegram', to: '-100333' });
      expect(bound.status).toBeLessThan(300);
      await t.worker.drainOnce();
      expect(telegram.requests.map((r) => r.body.chat_id)).toEqual([-100333]);
      expect(
        structured(
          await admin.callTool({
            name: 'set_chat_bindings',
            arguments: { project_id: b.id, channel: 'telegram', chats: [] },
          }),
        ).chats,
      ).toEqual([]);
    } finally {
      await admin.close();
      await reader.close();
    }
  });
});

describe('chat bindings opt-out (CHAT_BINDINGS_REQUIRED=false, single-tenant installs)', () => {
  const telegram = new TelegramFake();
  let t: TestApp;

  beforeAll(async () => {
    await telegram.start();
    t = await startTestApp({
      env: {
        TELEGRAM_PROVIDER: 'telegram',
        TELEGRAM_BOT_TOKEN: TELEGRAM_TOKEN,
        TELEGRAM_API_BASE: telegram.url,
        CHAT_BINDINGS_REQUIRED: 'false',
      },
    });
  });
  afterAll(async () => {
    await t?.close();
    await telegram.stop();
  });

  it('lets every project post to any chat, and says so on the bindings route', async () => {
    const p = await t.createProject();
    const res = await t.http
      .post('/v1/send')
      .set('X-Api-Key', p.key)
      .send({ channels: ['telegram'], to: '-1002222222222', body: 'hi' });
    expect(res.status).toBe(200);
    await t.worker.drainOnce();
    expect(telegram.requests.map((r) => r.body.chat_id)).toEqual([-1002222222222]);
    const list = await t.http.get(`/v1/admin/projects/${p.id}/chat-bindings`).set('X-Api-Key', ADMIN_KEY);
    expect(list.body).toMatchObject({ required: false, bindings: [] });
  });
});
