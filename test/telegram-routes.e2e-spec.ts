import { randomBytes } from 'node:crypto';
import { TELEGRAM_TOKEN, TelegramFake, telegramError } from './fakes/telegram-fake.js';
import { useProviderApp } from './helpers/provider-app.js';
import { ADMIN_KEY, startTestApp } from './helpers/test-app.js';

const USER_TOKEN = '700100200:AAFuserbotTokenForTheRouteTests_abcdEF';
const FOREIGN_TOKEN = '700100400:AAFbotWhoseWebhookPointsElsewhere_12345';
const UNKNOWN_TOKEN = '700100500:AAFtokenTelegramDoesNotKnowAtAll_987654';
const WEBHOOK_BASE = 'https://notifyd.example.com/v1/telegram/webhooks';
const USER_CHAT = 555000777;
const FORUM = -1009876543210;
const K1 = randomBytes(32).toString('base64');

/** notifyd with the instance bot on the Bot API fake, for the describe blocks below. */
const telegramApp = (telegram: TelegramFake) =>
  useProviderApp({
    fakes: [telegram],
    loopbackOnly: true,
    env: () => ({
      TELEGRAM_PROVIDER: 'telegram',
      TELEGRAM_BOT_TOKEN: TELEGRAM_TOKEN,
      TELEGRAM_API_BASE: telegram.url,
      NOTIFYD_SECRET_KEY: K1,
      OUTBOUND_ALLOW_LOOPBACK: 'true',
      // No stall here: a long timeout only keeps a cold first call on a loaded CI machine from timing out.
      OUTBOUND_TIMEOUT_MS: '10000',
    }),
  });

/**
 * Per-user Telegram bots (notifyd 0.x §2.15) against the Bot API fake: the eight routes, the
 * pairing webhook and its secret header, project scoping, the token never shown, and sends
 * routed through the owner's bot by chat.telegram_route_id.
 */
describe('per-user Telegram bots (/v1/telegram)', () => {
  const telegram = new TelegramFake();
  const app = telegramApp(telegram);
  let other: { id: string; key: string };
  /** Each owner's own bot (a bot has one webhook, so owners never share one). */
  const tokens = new Map<string, string>();
  const tokenFor = (owner: string) => {
    if (!tokens.has(owner)) {
      const token = `${700200000 + tokens.size}:AAF${owner.padEnd(32, 'x')}`;
      telegram.addBot(token, `${owner}_bot`);
      tokens.set(owner, token);
    }
    return tokens.get(owner)!;
  };
  beforeAll(async () => {
    telegram.addBot(USER_TOKEN, 'ada_bot');
    tokens.set('ada', USER_TOKEN);
    telegram.addBot(FOREIGN_TOKEN, 'busy_bot').webhook.url = 'https://elsewhere.example.com/hook';
    telegram.chatInfo.set(String(USER_CHAT), { id: USER_CHAT, type: 'private' });
    telegram.chatInfo.set(String(FORUM), { id: FORUM, type: 'supergroup', is_forum: true });
    telegram.chatInfo.set('@ada_channel', { id: -1001112223334, type: 'channel' });
    other = await app.t.createProject();
  });

  const as = (key: string) => ({
    get: (path: string) => app.t.http.get(path).set('X-Api-Key', key),
    put: (path: string, body: object) => app.t.http.put(path).set('X-Api-Key', key).send(body),
    post: (path: string, body: object) => app.t.http.post(path).set('X-Api-Key', key).send(body),
    delete: (path: string) => app.t.http.delete(path).set('X-Api-Key', key),
  });
  const api = () => as(app.project.key);
  const putBot = (owner: string, token = tokenFor(owner)) =>
    api().put(`/v1/telegram/${owner}`, { bot_token: token, webhook_base: WEBHOOK_BASE });
  /** Telegram delivering an update to the bot's webhook, as the fake recorded it from setWebhook. */
  const deliver = (token: string, update: object, secret?: string | null) => {
    const hook = telegram.bots.get(token)!.webhook;
    const path = new URL(hook.url).pathname;
    const req = app.t.http.post(path).send(update);
    return secret === null ? req : req.set('X-Telegram-Bot-Api-Secret-Token', secret ?? hook.secretToken!);
  };
  const start = (text: string, chat: object, extra: object = {}) => ({
    update_id: 1,
    message: { message_id: 9, date: 1764460800, text, chat, ...extra },
  });
  const tokenOf = (deepLink: string) =>
    new URL(deepLink).searchParams.get('start') ?? new URL(deepLink).searchParams.get('startgroup')!;
  const allowAnotherLink = () =>
    app.t.db.sql(`UPDATE telegram_link_tokens SET created_at = now() - interval '2 minutes'`);

  it("PUT sets the owner's bot: getMe, webhook to notifyd with a secret, token sealed and never returned", async () => {
    const res = await putBot('ada').expect(200);
    expect(res.body.data).toEqual({
      route_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      bot_username: 'ada_bot',
      owned: true,
      source: 'personal',
      token_hint: `…${USER_TOKEN.slice(-4)}`,
      webhook_registered: true,
      can_link: true,
    });
    expect(JSON.stringify(res.body)).not.toContain(USER_TOKEN.split(':')[1]);
    const hook = telegram.bots.get(USER_TOKEN)!.webhook;
    expect(hook.url).toMatch(new RegExp(`^${WEBHOOK_BASE}/[0-9a-f-]{36}$`));
    expect(hook.secretToken).toMatch(/^[0-9a-f]{64}$/);
    expect(hook.allowedUpdates).toEqual(['message']);
    const [row] = await app.t.db.sql<{ bot_token_sealed: string; webhook_secret_sealed: string }>(
      `SELECT bot_token_sealed, webhook_secret_sealed FROM telegram_credentials WHERE owner = 'ada'`,
    );
    expect(row.bot_token_sealed).toMatch(/^v1\./);
    expect(row.bot_token_sealed).not.toContain(USER_TOKEN.split(':')[1]);
    expect(row.webhook_secret_sealed).not.toContain(hook.secretToken);

    const view = await api().get('/v1/telegram/ada').expect(200);
    expect(view.body).toEqual({ data: { bot: res.body.data, destination: null } });
    expect(JSON.stringify(view.body)).not.toContain(USER_TOKEN.split(':')[1]);
    // Setting the same bot again moves the webhook to a new connection: the foreign-webhook check knows its own.
    await putBot('ada').expect(200);
    expect(telegram.bots.get(USER_TOKEN)!.webhook.url).not.toBe(hook.url);
    // Audited as the project key, with the caller's address.
    const audit = await app.t.db.sql(
      `SELECT actor, ip FROM audit_log WHERE project_id = $1 AND action = 'telegram_route.set' AND resource = 'ada'`,
      [app.project.id],
    );
    expect(audit).toEqual([
      { actor: 'api_key', ip: expect.any(String) },
      { actor: 'api_key', ip: expect.any(String) },
    ]);
    expect(await api().get('/v1/telegram/nobody').expect(200)).toMatchObject({
      body: { data: { bot: null, destination: null } },
    });
  });

  it('PUT refuses bad input naming the field, the instance bot, a token Telegram rejects, a foreign webhook, a failed setWebhook', async () => {
    const bad = (body: object, owner = 'bob') => api().put(`/v1/telegram/${owner}`, body);
    expect((await bad({ bot_token: 'nope', webhook_base: WEBHOOK_BASE }).expect(422)).body.message).toMatch(
      /bot_token must be a bot token from @BotFather/,
    );
    expect(
      (await bad({ bot_token: USER_TOKEN, webhook_base: 'http://notifyd.example.com/hooks' }).expect(422)).body.message,
    ).toMatch(/webhook_base must start with https:\/\//);
    expect((await bad({ bot_token: USER_TOKEN }).expect(422)).body.message).toMatch(/webhook_base/);
    expect(
      (await bad({ bot_token: USER_TOKEN, webhook_base: WEBHOOK_BASE, extra: 1 }).expect(422)).body.message,
    ).toMatch(/extra is not a field/);
    expect(
      (await bad({ bot_token: USER_TOKEN, webhook_base: WEBHOOK_BASE }, ' spaced ').expect(422)).body.message,
    ).toMatch(/owner must be 1–255 printable characters/);
    expect((await bad({ bot_token: TELEGRAM_TOKEN, webhook_base: WEBHOOK_BASE }).expect(422)).body.message).toMatch(
      /^bot_token is the instance's own bot/,
    );
    const unknown = await bad({ bot_token: UNKNOWN_TOKEN, webhook_base: WEBHOOK_BASE }).expect(400);
    expect(unknown.body).toMatchObject({
      error: 'invalid_bot_token',
      message: expect.stringMatching(/^bot_token: Telegram answered 401 Unauthorized/),
    });
    expect(JSON.stringify(unknown.body)).not.toContain(UNKNOWN_TOKEN.split(':')[1]);
    expect((await bad({ bot_token: FOREIGN_TOKEN, webhook_base: WEBHOOK_BASE }).expect(409)).body.error).toBe(
      'webhook_in_use',
    );
    expect(telegram.bots.get(FOREIGN_TOKEN)!.webhook.url).toBe('https://elsewhere.example.com/hook');
    telegram.methods.set('setWebhook', telegramError(400, 'Bad Request: bad webhook: Failed to resolve host'));
    try {
      expect((await bad({ bot_token: tokenFor('bob'), webhook_base: WEBHOOK_BASE }).expect(502)).body.error).toBe(
        'webhook_not_set',
      );
    } finally {
      telegram.methods.delete('setWebhook');
    }
    expect(await app.t.db.sql(`SELECT owner FROM telegram_credentials WHERE owner = 'bob'`)).toEqual([]);
  });

  it('link → /start through the webhook (secret header checked) pairs a verified chat; lookup returns it', async () => {
    await putBot('cleo').expect(200);
    const link = await api().post('/v1/telegram/cleo/link', {}).expect(200);
    expect(link.body.data).toEqual({
      deep_link: expect.stringMatching(/^https:\/\/t\.me\/cleo_bot\?start=[0-9a-f]{32}$/),
      expires_at: expect.any(String),
      command: expect.stringMatching(/^\/start [0-9a-f]{32}$/),
    });
    const minutes = (new Date(link.body.data.expires_at).getTime() - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(14);
    expect(minutes).toBeLessThanOrEqual(15);
    const again = await api().post('/v1/telegram/cleo/link', { kind: 'private' }).expect(429);
    expect(Number(again.headers['retry-after'])).toBeGreaterThan(0);
    expect(again.body).toMatchObject({ error: 'link_too_soon', retry_after: Number(again.headers['retry-after']) });
    expect((await api().post('/v1/telegram/cleo/link', { kind: 'channel' }).expect(422)).body.message).toMatch(
      /kind must be "private" or "group"/,
    );

    const token = tokenOf(link.body.data.deep_link);
    const update = start(`/start ${token}`, { id: USER_CHAT, type: 'private' });
    expect((await deliver(tokenFor('cleo'), update, null).expect(401)).body.message).toMatch(
      /X-Telegram-Bot-Api-Secret-Token/,
    );
    await deliver(tokenFor('cleo'), update, 'f'.repeat(64)).expect(401);
    await app.t.http
      .post('/v1/telegram/webhooks/00000000-0000-4000-8000-000000000000')
      .set('X-Telegram-Bot-Api-Secret-Token', 'x')
      .send(update)
      .expect(404);
    // The route is public: a body far beyond any Telegram update is refused before it is parsed.
    const huge = await app.t.http
      .post('/v1/telegram/webhooks/00000000-0000-4000-8000-000000000000')
      .set('X-Telegram-Bot-Api-Secret-Token', 'x')
      .send({ ...update, padding: 'x'.repeat(300 * 1024) });
    expect([huge.status, huge.body]).toEqual([
      413,
      {
        error: 'payload_too_large',
        message: 'The request body is larger than 262144 bytes, the most this route accepts.',
      },
    ]);
    expect(await app.t.db.sql(`SELECT 1 FROM telegram_destinations WHERE owner = 'cleo'`)).toEqual([]);
    expect(
      (
        await deliver(tokenFor('cleo'), {
          update_id: 2,
          message: { text: 'hello', chat: { id: USER_CHAT, type: 'private' } },
        }).expect(200)
      ).body,
    ).toEqual({ ok: true, linked: false });
    expect((await deliver(tokenFor('cleo'), update).expect(200)).body).toEqual({ ok: true, linked: true });
    // Used once: the same /start again pairs nothing.
    expect((await deliver(tokenFor('cleo'), update).expect(200)).body).toEqual({ ok: true, linked: false });

    const view = await api().get('/v1/telegram/cleo').expect(200);
    expect(view.body.data.destination).toEqual({
      channel: 'telegram',
      address_masked: `***${String(USER_CHAT).slice(-4)}`,
      verified: true,
      created_at: expect.any(String),
      telegram_thread_id: null,
      telegram_bot_username: 'cleo_bot',
    });
    const lookup = await api()
      .post('/v1/telegram/lookup', { owners: ['cleo', 'ada', 'nobody'] })
      .expect(200);
    expect(lookup.body).toEqual({
      data: [
        {
          owner: 'cleo',
          route_id: view.body.data.bot.route_id,
          address: String(USER_CHAT),
          telegram_thread_id: null,
          bot_username: 'cleo_bot',
          verified: true,
        },
      ],
    });
    expect(
      (
        await api()
          .post('/v1/telegram/lookup', { owners: Array.from({ length: 101 }, (_, i) => `u${i}`) })
          .expect(422)
      ).body.message,
    ).toMatch(/owners may name at most 100/);
    expect((await api().post('/v1/telegram/lookup', { owners: [] }).expect(422)).body.message).toMatch(
      /owners must name at least one/,
    );
  });

  it('a group link pairs the forum topic it was started in; an expired token pairs nothing', async () => {
    await putBot('dora').expect(200);
    const expired = await api().post('/v1/telegram/dora/link', {}).expect(200);
    await app.t.db.sql(
      `UPDATE telegram_link_tokens SET expires_at = now() - interval '1 second', created_at = now() - interval '2 minutes' WHERE owner = 'dora'`,
    );
    expect(
      (
        await deliver(
          tokenFor('dora'),
          start(`/start ${tokenOf(expired.body.data.deep_link)}`, { id: USER_CHAT, type: 'private' }),
        ).expect(200)
      ).body.linked,
    ).toBe(false);

    const group = await api().post('/v1/telegram/dora/link', { kind: 'group' }).expect(200);
    expect(group.body.data.deep_link).toMatch(/^https:\/\/t\.me\/dora_bot\?startgroup=[0-9a-f]{32}$/);
    expect(group.body.data.command).toMatch(/^\/start@dora_bot [0-9a-f]{32}$/);
    const token = tokenOf(group.body.data.deep_link);
    // Addressed to another bot in the group: not ours.
    expect(
      (
        await deliver(
          tokenFor('dora'),
          start(`/start@other_bot ${token}`, { id: FORUM, type: 'supergroup', is_forum: true }),
        ).expect(200)
      ).body.linked,
    ).toBe(false);
    const paired = await deliver(
      tokenFor('dora'),
      start(
        `/start@dora_bot ${token}`,
        { id: FORUM, type: 'supergroup', is_forum: true },
        { message_thread_id: 77, is_topic_message: true },
      ),
    ).expect(200);
    expect(paired.body.linked).toBe(true);
    const [route] = (
      await api()
        .post('/v1/telegram/lookup', { owners: ['dora'] })
        .expect(200)
    ).body.data;
    expect(route).toMatchObject({ address: String(FORUM), telegram_thread_id: '77' });
  });

  it('PUT/DELETE destination: getChat resolves the chat, a topic only in a forum supergroup', async () => {
    await api()
      .put('/v1/telegram/nobot/destination', { address: String(USER_CHAT) })
      .expect(404);
    await putBot('eve').expect(200);
    const set = await api().put('/v1/telegram/eve/destination', { address: '@ada_channel' }).expect(200);
    expect(set.body.data).toMatchObject({ address_masked: '***3334', verified: true, telegram_thread_id: null });
    expect(
      (
        await api()
          .put('/v1/telegram/eve/destination', { address: String(USER_CHAT), telegram_thread_id: 5 })
          .expect(422)
      ).body.message,
    ).toMatch(/^telegram_thread_id: chat 555000777 is a private without topics/);
    expect(
      (await api().put('/v1/telegram/eve/destination', { address: '123', telegram_thread_id: 0 }).expect(422)).body
        .message,
    ).toMatch(/telegram_thread_id must be a positive whole number/);
    expect(
      (await api().put('/v1/telegram/eve/destination', { address: 'not a chat' }).expect(422)).body.message,
    ).toMatch(/address must be a Telegram chat id such as 123456789/);
    const missing = await api().put('/v1/telegram/eve/destination', { address: '424242' }).expect(400);
    expect(missing.body).toMatchObject({
      error: 'invalid_chat',
      message: expect.stringMatching(/^address: Telegram answered 400 Bad Request: chat not found/),
    });
    const topic = await api()
      .put('/v1/telegram/eve/destination', { address: String(FORUM), telegram_thread_id: '12' })
      .expect(200);
    expect(topic.body.data).toMatchObject({ address_masked: '***3210', telegram_thread_id: '12' });
    await api().delete('/v1/telegram/eve/destination').expect(204);
    expect((await api().get('/v1/telegram/eve').expect(200)).body.data.destination).toBeNull();
    await api().delete('/v1/telegram/eve/destination').expect(204);
  });

  describe('sending with chat.telegram_route_id', () => {
    let routeId: string;
    beforeAll(async () => {
      await putBot('finn').expect(200);
      await api()
        .put('/v1/telegram/finn/destination', { address: String(FORUM), telegram_thread_id: '31' })
        .expect(200);
      routeId = (
        await api()
          .post('/v1/telegram/lookup', { owners: ['finn'] })
          .expect(200)
      ).body.data[0].route_id;
    });
    const routedSend = (to: string, route: string, key = app.project.key) =>
      app.t.http
        .post('/v1/send')
        .set('X-Api-Key', key)
        .send({
          channels: ['telegram'],
          to,
          body: 'Build #42 passed',
          chat: { telegram_route_id: route, telegram_thread_id: 9 },
        });

    it("arrives through the route's bot, to its chat and topic, with no chat binding for the instance bot", async () => {
      telegram.requests.splice(0);
      const res = await routedSend(String(FORUM), routeId).expect(200);
      await app.t.worker.drainOnce();
      expect(await app.job(res.body.job_ids[0])).toMatchObject({
        status: 'sent',
        attempts: 1,
        provider: 'telegram',
        provider_message_id: expect.stringMatching(/^\d+$/),
      });
      const sent = telegram.sentWith(tokenFor('finn'));
      expect(sent).toHaveLength(1);
      expect(sent[0].body).toMatchObject({ chat_id: FORUM, text: 'Build #42 passed', message_thread_id: 31 });
      expect(telegram.sentWith(TELEGRAM_TOKEN)).toHaveLength(0);
    });

    it('a 429 with retry_after pauses the routed lane and gives the attempt back', async () => {
      const lane = `telegram:telegram-route:${app.project.id}`;
      telegram.chats.set(String(FORUM), telegramError(429, 'Too Many Requests: retry after 7', { retry_after: 7 }));
      try {
        const id = (await routedSend(String(FORUM), routeId).expect(200)).body.job_ids[0];
        await app.t.worker.drainOnce();
        expect(telegram.sentWith(tokenFor('finn')).at(-1)!.body).toMatchObject({ chat_id: FORUM });
        expect(await app.job(id)).toMatchObject({ status: 'pending', attempts: 0 });
        // Measured from when the job was queued and the pause began, not from now(): a loaded
        // machine can take seconds of the 7 to drain and read.
        const [job] = await app.t.db.sql(
          `SELECT run_at >= created_at + interval '6 seconds' AS waits FROM jobs WHERE id = $1`,
          [id],
        );
        expect(job).toEqual({ waits: true });
        const [paused] = await app.t.db.sql(
          `SELECT pause_kind, paused_until - paused_at >= interval '7 seconds' AS long_enough FROM pacing_lanes WHERE lane_key = $1`,
          [lane],
        );
        expect(paused).toEqual({ pause_kind: 'rate_limited', long_enough: true });
        // The instance bot's lane is not paused by an owner's bot.
        expect(
          await app.t.db.sql(
            `SELECT 1 FROM pacing_lanes WHERE lane_key = 'telegram:telegram' AND paused_until > now()`,
          ),
        ).toEqual([]);
        await app.t.db.sql(`UPDATE jobs SET status = 'cancelled' WHERE id = $1`, [id]);
        await app.t.db.sql(`UPDATE pacing_lanes SET paused_until = now() WHERE lane_key = $1`, [lane]);
      } finally {
        telegram.chats.delete(String(FORUM));
      }
    });

    it('refuses at the door, naming the field: another chat, an unknown route, a route of another project, a malformed id', async () => {
      expect((await routedSend(String(USER_CHAT), routeId).expect(422)).body.message).toMatch(
        /^to: '555000777' is not the chat of chat\.telegram_route_id/,
      );
      expect(
        (await routedSend(String(FORUM), '00000000-0000-4000-8000-000000000000').expect(422)).body.message,
      ).toMatch(
        /^chat\.telegram_route_id: '00000000-0000-4000-8000-000000000000' is not a Telegram route of this project/,
      );
      expect((await routedSend(String(FORUM), routeId, other.key).expect(422)).body.message).toMatch(
        /^chat\.telegram_route_id: .* is not a Telegram route of this project/,
      );
      expect((await routedSend(String(FORUM), 'route-1').expect(422)).body.message).toMatch(
        /chat\.telegram_route_id must be a route id/,
      );
      await putBot('gus').expect(200);
      const unpaired = (await api().get('/v1/telegram/gus').expect(200)).body.data.bot.route_id;
      expect((await routedSend(String(FORUM), unpaired).expect(422)).body.message).toMatch(
        /^chat\.telegram_route_id: the route of owner 'gus' has no verified chat/,
      );
    });

    it('a route removed after the send fails the job; it never falls back to the instance bot', async () => {
      await putBot('hana').expect(200);
      await api()
        .put('/v1/telegram/hana/destination', { address: String(USER_CHAT) })
        .expect(200);
      const route = (
        await api()
          .post('/v1/telegram/lookup', { owners: ['hana'] })
          .expect(200)
      ).body.data[0].route_id;
      const id = (await routedSend(String(USER_CHAT), route).expect(200)).body.job_ids[0];
      await api().delete('/v1/telegram/hana').expect(204);
      telegram.requests.splice(0);
      // The routed lane may still be held in this process's pause cache by the 429 test above
      // (its pause lifted in the table, the cache keeps it up to retry_after): drain until claimed.
      for (let i = 0; i < 60 && (await app.job(id)).status === 'pending'; i++) {
        await app.t.worker.drainOnce();
        if ((await app.job(id)).status === 'pending') await new Promise((r) => setTimeout(r, 250));
      }
      expect(await app.job(id)).toMatchObject({
        status: 'failed',
        provider: 'telegram',
        error: expect.stringMatching(/is not a Telegram route of this project/),
      });
      expect(telegram.sentWith(tokenFor('hana'))).toHaveLength(0);
      expect(telegram.sentWith(TELEGRAM_TOKEN)).toHaveLength(0);
    });
  });

  it('is scoped by project: another project sees, changes and deletes nothing of this one', async () => {
    const them = as(other.key);
    await putBot('ivy').expect(200);
    expect((await them.get('/v1/telegram/ivy').expect(200)).body).toEqual({ data: { bot: null, destination: null } });
    expect((await them.post('/v1/telegram/lookup', { owners: ['cleo', 'ivy'] }).expect(200)).body).toEqual({
      data: [],
    });
    await them.delete('/v1/telegram/ivy').expect(404);
    await them.post('/v1/telegram/ivy/link', {}).expect(404);
    await them.put('/v1/telegram/ivy/destination', { address: String(USER_CHAT) }).expect(404);
    expect((await api().get('/v1/telegram/ivy').expect(200)).body.data.bot.bot_username).toBe('ivy_bot');
    await app.t.http.get('/v1/telegram/ivy').expect(401);
  });

  it("DELETE removes the bot's webhook (best effort), the bot, its chat and tokens; then 404", async () => {
    await putBot('jack').expect(200);
    await api()
      .put('/v1/telegram/jack/destination', { address: String(USER_CHAT) })
      .expect(200);
    await allowAnotherLink();
    await api().post('/v1/telegram/jack/link', {}).expect(200);
    expect(telegram.bots.get(tokenFor('jack'))!.webhook.url).not.toBe('');
    await api().delete('/v1/telegram/jack').expect(204);
    expect(telegram.bots.get(tokenFor('jack'))!.webhook.url).toBe('');
    expect(
      await app.t.db.sql(
        `SELECT (SELECT count(*)::int FROM telegram_destinations WHERE owner = 'jack') AS d, (SELECT count(*)::int FROM telegram_link_tokens WHERE owner = 'jack') AS t`,
      ),
    ).toEqual([{ d: 0, t: 0 }]);
    await api().delete('/v1/telegram/jack').expect(404);
    expect((await api().get('/v1/telegram/jack').expect(200)).body.data.bot).toBeNull();
  });

  it('key rotation: the reseal of project providers re-seals the bots too; then the old key can go', async () => {
    await putBot('lou').expect(200);
    const secret = telegram.bots.get(tokenFor('lou'))!.webhook.secretToken!;
    const path = new URL(telegram.bots.get(tokenFor('lou'))!.webhook.url).pathname;
    const k2 = randomBytes(32).toString('base64');
    const env = { TELEGRAM_API_BASE: telegram.url, OUTBOUND_ALLOW_LOOPBACK: 'true' };
    const rotated = await startTestApp({
      database: app.t.db,
      env: { ...env, NOTIFYD_SECRET_KEY: k2, NOTIFYD_SECRET_KEY_ID: 'k2', NOTIFYD_PREVIOUS_SECRET_KEYS: `k1:${K1}` },
    });
    try {
      const [{ n }] = await app.t.db.sql<{ n: number }>(
        `SELECT count(*)::int AS n FROM telegram_credentials WHERE key_id = 'k1'`,
      );
      const reseal = await rotated.http
        .post('/v1/admin/project-providers/reseal')
        .set('X-Api-Key', ADMIN_KEY)
        .expect(200);
      expect(reseal.body).toEqual({ resealed: n, unreadable: [] });
    } finally {
      await rotated.notifyd.close();
    }
    const only = await startTestApp({
      database: app.t.db,
      env: { ...env, NOTIFYD_SECRET_KEY: k2, NOTIFYD_SECRET_KEY_ID: 'k2' },
    });
    try {
      await only.http.post(path).set('X-Telegram-Bot-Api-Secret-Token', secret).send({ update_id: 3 }).expect(200);
    } finally {
      await only.notifyd.close();
    }
    // This app still holds only k1: the re-sealed secret no longer opens (503), never accepted unchecked.
    await app.t.http.post(path).set('X-Telegram-Bot-Api-Secret-Token', secret).send({ update_id: 4 }).expect(503);
  });

  it("another bot for the same owner drops the old bot's webhook and the chat paired with it", async () => {
    await putBot('kim').expect(200);
    await api()
      .put('/v1/telegram/kim/destination', { address: String(USER_CHAT) })
      .expect(200);
    const before = (await api().get('/v1/telegram/kim').expect(200)).body.data.bot.route_id;
    telegram.requests.splice(0);
    await putBot('kim', tokenFor('kim2')).expect(200);
    expect(telegram.requests.some((r) => r.path === `/bot${tokenFor('kim')}/deleteWebhook`)).toBe(true);
    expect(telegram.bots.get(tokenFor('kim'))!.webhook.url).toBe('');
    const view = (await api().get('/v1/telegram/kim').expect(200)).body.data;
    expect(view).toMatchObject({ bot: { route_id: before, bot_username: 'kim2_bot' }, destination: null });
  });
});

describe('PUT /v1/telegram/:owner when Telegram refuses setWebhook, or a PUT died half-way', () => {
  const telegram = new TelegramFake();
  const app = telegramApp(telegram);
  const LEA = '700300001:AAFleaBotTokenForTheSetWebhookTests_xx';
  const LEA2 = '700300002:AAFleaSecondBotForTheSetWebhookTest_yy';
  beforeAll(() => {
    telegram.addBot(LEA, 'lea_bot');
    telegram.addBot(LEA2, 'lea2_bot');
    telegram.chatInfo.set(String(USER_CHAT), { id: USER_CHAT, type: 'private' });
  });
  const api = () => ({
    get: (path: string) => app.t.http.get(path).set('X-Api-Key', app.project.key),
    put: (path: string, body: object) => app.t.http.put(path).set('X-Api-Key', app.project.key).send(body),
    post: (path: string, body: object) => app.t.http.post(path).set('X-Api-Key', app.project.key).send(body),
  });
  const putBot = (owner: string, token: string) =>
    api().put(`/v1/telegram/${owner}`, { bot_token: token, webhook_base: WEBHOOK_BASE });
  /** An update Telegram would post to this webhook is accepted: notifyd knows its connection and secret. */
  const updateReaches = (hook: { url: string; secretToken?: string }, updateId: number) =>
    app.t.http
      .post(new URL(hook.url).pathname)
      .set('X-Telegram-Bot-Api-Secret-Token', hook.secretToken!)
      .send({ update_id: updateId })
      .expect(200);
  const stored = async (owner: string) =>
    app.t.db.sql<{ id: string; bot_id: string; webhook_connection_id: string; webhook_registered: boolean }>(
      `SELECT id, bot_id::text, webhook_connection_id, webhook_registered FROM telegram_credentials WHERE owner = $1`,
      [owner],
    );
  const refusingSetWebhook = async <T>(fn: () => Promise<T>): Promise<T> => {
    telegram.methods.set('setWebhook', telegramError(400, 'Bad Request: bad webhook: Failed to resolve host'));
    try {
      return await fn();
    } finally {
      telegram.methods.delete('setWebhook');
    }
  };

  it('the same bot again, refused: 502 and the stored route is the old one, its webhook still delivering', async () => {
    await putBot('lea', LEA).expect(200);
    await api()
      .put('/v1/telegram/lea/destination', { address: String(USER_CHAT) })
      .expect(200);
    const before = await stored('lea');
    const view = (await api().get('/v1/telegram/lea').expect(200)).body;
    const hook = { ...telegram.bots.get(LEA)!.webhook };

    const res = await refusingSetWebhook(() => putBot('lea', LEA).expect(502));
    expect(res.body).toMatchObject({
      error: 'webhook_not_set',
      message: expect.stringMatching(/Failed to resolve host/),
    });
    expect(await stored('lea')).toEqual(before);
    expect((await api().get('/v1/telegram/lea').expect(200)).body).toEqual(view);
    expect(telegram.bots.get(LEA)!.webhook).toEqual(hook);
    // Telegram still posts to the old connection, and notifyd still knows it.
    await updateReaches(hook, 1);
  });

  it('another bot, refused: 502, the old bot and its chat stay, and the old bot keeps its webhook', async () => {
    const before = await stored('lea');
    const view = (await api().get('/v1/telegram/lea').expect(200)).body;
    expect(view.data.destination).toMatchObject({ verified: true, telegram_bot_username: 'lea_bot' });
    const hook = { ...telegram.bots.get(LEA)!.webhook };
    telegram.requests.splice(0);

    await refusingSetWebhook(() => putBot('lea', LEA2).expect(502));
    expect(await stored('lea')).toEqual(before);
    expect((await api().get('/v1/telegram/lea').expect(200)).body).toEqual(view);
    expect(telegram.requests.some((r) => r.path.endsWith('/deleteWebhook'))).toBe(false);
    expect(telegram.bots.get(LEA)!.webhook).toEqual(hook);
    expect(telegram.bots.get(LEA2)!.webhook.url).toBe('');
  });

  it('a new owner, refused: 502 and no route', async () => {
    await refusingSetWebhook(() => putBot('max', tokenOf('max')).expect(502));
    expect(await stored('max')).toEqual([]);
    expect((await api().get('/v1/telegram/max').expect(200)).body.data).toEqual({ bot: null, destination: null });
  });

  it('the store fails: Telegram was not called, its webhook stays on the connection notifyd knows', async () => {
    await putBot('quy', tokenOf('quy')).expect(200);
    const hook = { ...telegram.bots.get(tokenOf('quy'))!.webhook };
    const before = await stored('quy');
    // A real failure of the store: PostgreSQL refuses any change to this owner's row.
    await app.t.db.sql(`
      CREATE FUNCTION refuse_quy() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN RAISE EXCEPTION 'the store fails for this test'; END $$`);
    await app.t.db.sql(
      `CREATE TRIGGER refuse_quy BEFORE UPDATE ON telegram_credentials FOR EACH ROW WHEN (OLD.owner = 'quy') EXECUTE FUNCTION refuse_quy()`,
    );
    telegram.requests.splice(0);
    try {
      expect((await putBot('quy', tokenOf('quy'))).status).toBeGreaterThanOrEqual(500);
    } finally {
      await app.t.db.sql(`DROP TRIGGER refuse_quy ON telegram_credentials`);
      await app.t.db.sql(`DROP FUNCTION refuse_quy()`);
    }
    expect(telegram.requests.some((r) => r.path.endsWith('/setWebhook'))).toBe(false);
    expect(telegram.bots.get(tokenOf('quy'))!.webhook).toEqual(hook);
    expect(await stored('quy')).toEqual(before);
    await updateReaches(hook, 3);
  });

  it('a PUT that died after storing its connection, before setWebhook: not linkable, and the next PUT takes the dangling webhook back', async () => {
    await putBot('noa', tokenOf('noa')).expect(200);
    const oldUrl = telegram.bots.get(tokenOf('noa'))!.webhook.url;
    // As the dead PUT left it: the row on a new connection, unregistered; Telegram on the old one.
    await app.t.db.sql(
      `UPDATE telegram_credentials SET webhook_connection_id = gen_random_uuid(), webhook_registered = false WHERE owner = 'noa'`,
    );
    expect((await api().get('/v1/telegram/noa').expect(200)).body.data.bot).toMatchObject({
      webhook_registered: false,
      can_link: false,
    });
    expect((await api().post('/v1/telegram/noa/link', {}).expect(409)).body.error).toBe('webhook_not_registered');
    await app.t.http.post(new URL(oldUrl).pathname).send({ update_id: 2 }).expect(404);

    const res = await putBot('noa', tokenOf('noa')).expect(200);
    expect(res.body.data).toMatchObject({ webhook_registered: true, can_link: true });
    const [row] = await stored('noa');
    expect(telegram.bots.get(tokenOf('noa'))!.webhook.url).toBe(`${WEBHOOK_BASE}/${row.webhook_connection_id}`);
    await api().post('/v1/telegram/noa/link', {}).expect(200);
  });

  it("a webhook held by another owner's route is still foreign (409), not dangling", async () => {
    await putBot('ora', tokenOf('ora')).expect(200);
    const url = telegram.bots.get(tokenOf('ora'))!.webhook.url;
    expect((await putBot('pia', tokenOf('ora')).expect(409)).body.error).toBe('webhook_in_use');
    expect(telegram.bots.get(tokenOf('ora'))!.webhook.url).toBe(url);
    expect(await stored('pia')).toEqual([]);
  });

  /** One bot per owner name, made on first use. */
  function tokenOf(owner: string): string {
    const token = `${700300100 + owner.charCodeAt(0)}:AAF${owner.padEnd(32, 'z')}`;
    if (!telegram.bots.has(token)) telegram.addBot(token, `${owner}_bot`);
    return token;
  }
});

describe('per-user Telegram bots without NOTIFYD_SECRET_KEY', () => {
  it('answers 503 where a token would be stored or read', async () => {
    const t = await startTestApp({ env: {} });
    try {
      const p = await t.createProject();
      const res = await t.http
        .put('/v1/telegram/ada')
        .set('X-Api-Key', p.key)
        .send({ bot_token: USER_TOKEN, webhook_base: WEBHOOK_BASE })
        .expect(503);
      expect(res.body).toMatchObject({
        error: 'secret_key_not_configured',
        message: expect.stringMatching(/NOTIFYD_SECRET_KEY/),
      });
      await t.http.post('/v1/telegram/webhooks/00000000-0000-4000-8000-000000000000').send({}).expect(404);
      // A bot stored before the key was removed: its webhook cannot be checked.
      await t.db.sql(
        `INSERT INTO telegram_credentials (project_id, owner, bot_id, bot_username, bot_token_sealed, token_hint, webhook_connection_id, webhook_secret_sealed, key_id)
         VALUES ($1, 'ada', 1, 'ada_bot', 'v1.k1.x.x.x', '…', '00000000-0000-4000-8000-0000000000f1', 'v1.k1.x.x.x', 'k1')`,
        [p.id],
      );
      await t.http
        .post('/v1/telegram/webhooks/00000000-0000-4000-8000-0000000000f1')
        .set('X-Telegram-Bot-Api-Secret-Token', 'x')
        .send({})
        .expect(503);
    } finally {
      await t.close();
    }
  });
});
