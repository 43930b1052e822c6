import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { import0x, type Kind } from '../src/import-0x/importer.js';
import { open0xBlob } from '../src/import-0x/telegram-0x.js';
import { notifyd } from './helpers/notifyd-cli.js';
import { SseClient } from './helpers/sse-client.js';
import { createEmptyDatabase, type TestDatabase } from './helpers/test-database.js';
import { ADMIN_KEY, startTestApp, type TestApp } from './helpers/test-app.js';

const FIXTURES = join(process.cwd(), 'test', 'fixtures', 'notifyd-0x');
const SHOP_KEY = 'sk_shop_0123456789abcdef0123456789abcdef';
const SHOP_SECONDARY = 'sk_shop_fedcba9876543210fedcba9876543210';
const JWT_SECRET = 'test-jwt-secret-0123456789abcdef';
const OLD_SECRET = 'the-0x-jwt-secret-of-shop-2025';
/** 0.x's TELEGRAM_ENCRYPTION_KEY in the fixture (bytes 0..31), and this notifyd's key. */
const TELEGRAM_0X_KEY = Buffer.from(Array.from({ length: 32 }, (_, i) => i)).toString('base64');
const SECRET_KEY = Buffer.alloc(32, 7).toString('base64');

describe('notifyd import notifyd-0x', () => {
  let source: TestDatabase;
  let t: TestApp;
  const run = (...args: string[]) =>
    notifyd(['import', 'notifyd-0x', ...args], {
      DATABASE_URL: t.db.url,
      JWT_SECRET,
      LOG_LEVEL: 'silent',
      NOTIFYD_SECRET_KEY: SECRET_KEY,
      TELEGRAM_ENCRYPTION_KEY: TELEGRAM_0X_KEY,
    });
  const importJson = async (...args: string[]) => {
    const r = await run('--from', source.url, '--json', ...args);
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' });
    return JSON.parse(r.stdout) as {
      dry_run: boolean;
      counts: Record<string, { read: number; created: number; updated: number; unchanged: number; skipped: number }>;
      topics: number;
      skipped: string[];
      notes: string[];
    };
  };

  beforeAll(async () => {
    source = await createEmptyDatabase();
    await source.sql(readFileSync(join(FIXTURES, 'schema.sql'), 'utf8'));
    await source.sql(readFileSync(join(FIXTURES, 'rows.sql'), 'utf8'));
    t = await startTestApp({
      env: {
        JWT_SECRET,
        JWT_LEGACY_SECRET: OLD_SECRET,
        PUBLIC_URL: 'https://notify.shop.example',
        NOTIFYD_SECRET_KEY: SECRET_KEY,
      },
    });
  });
  afterAll(async () => {
    await t.close();
    await source.drop();
  });

  it('refuses a source that is not a notifyd 0.x database, and this notifyd’s own database, writing nothing', async () => {
    const empty = await createEmptyDatabase();
    try {
      const r = await run('--from', empty.url);
      expect(r.code).toBe(65);
      expect(r.stderr).toMatch(/refused: the source is not a notifyd 0\.x database/);
    } finally {
      await empty.drop();
    }
    const self = await run('--from', t.db.url);
    expect(self.code).toBe(65);
    expect(self.stderr).toMatch(/a database of this notifyd, not of notifyd 0\.x/);
    const usage = await run('--from', 'mysql://x');
    expect(usage.code).toBe(64);
  });

  it('--dry-run prints what it would do and writes nothing', async () => {
    const r = await run('--from', source.url, '--dry-run');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Dry run: nothing was written/);
    expect(r.stdout).toMatch(/subscribers\s+4\s+3\s+0\s+0\s+1/);
    expect(r.stdout).toContain("project 'craie' has no key hash in 0.x");
    expect(await t.db.sql(`SELECT id FROM projects WHERE id = 'shop'`)).toEqual([]);
    expect(await t.db.sql(`SELECT count(*)::int AS n FROM subscribers`)).toEqual([{ n: 0 }]);
  });

  it('imports projects with their key hashes, and everything that belongs to them; a summary at the end', async () => {
    const s = await importJson();
    expect(s.dry_run).toBe(false);
    expect(s.counts).toEqual({
      projects: { read: 3, created: 1, updated: 0, unchanged: 0, skipped: 2 },
      subscribers: { read: 4, created: 3, updated: 0, unchanged: 0, skipped: 1 },
      preferences: { read: 5, created: 4, updated: 0, unchanged: 0, skipped: 1 },
      templates: { read: 3, created: 2, updated: 0, unchanged: 0, skipped: 1 },
      push_tokens: { read: 3, created: 2, updated: 0, unchanged: 0, skipped: 1 },
      webhooks: { read: 2, created: 1, updated: 0, unchanged: 0, skipped: 1 },
      workflows: { read: 2, created: 1, updated: 0, unchanged: 0, skipped: 1 },
      suppressions: { read: 3, created: 3, updated: 0, unchanged: 0, skipped: 0 },
      telegram_routes: { read: 3, created: 1, updated: 0, unchanged: 0, skipped: 2 },
      telegram_chats: { read: 2, created: 1, updated: 0, unchanged: 0, skipped: 1 },
    });
    expect(s.topics).toBe(2);
    expect(s.skipped).toEqual(
      expect.arrayContaining([
        expect.stringContaining("project id 'Bad Id' is not a notifyd project id"),
        expect.stringContaining(
          "push token 00000000-0000-4000-8000-000000000003 of 'bob' in 'shop': a web push subscription without its endpoint and keys",
        ),
        expect.stringMatching(
          /webhook 00000000-0000-4000-8000-0000000000a2 of 'shop': .*10\.0\.0\.5|private|not public/,
        ),
        expect.stringContaining(
          "workflow 'broken' of 'shop': steps[0].template_id: template 'missing' has no email variant",
        ),
        "telegram route 00000000-0000-4000-8000-0000000000c3 of 'ugo' in 'shop': its token does not open with TELEGRAM_ENCRYPTION_KEY (is it the 0.x instance's key?)",
        "telegram chat of 'ugo' in 'shop': its route 00000000-0000-4000-8000-0000000000c3 was left out",
      ]),
    );
    expect(s.notes).toEqual(
      expect.arrayContaining([
        "project 'shop': channels fax are not notifyd channels, dropped",
        "subscriber 'bob' of 'shop': phone is not E.164, dropped",
        "subscriber 'bob' of 'shop': time zone 'Mars/Olympus' is unknown, dropped",
      ]),
    );

    const [project] = await t.db.sql(
      `SELECT name, channels, rate_limit_per_min, settings, from_email, api_key_hint FROM projects WHERE id = 'shop'`,
    );
    expect(project).toEqual({
      name: 'Shop',
      channels: ['email', 'in_app', 'push'],
      rate_limit_per_min: 1200,
      settings: {
        send_window: {
          start: '08:00',
          end: '20:00',
          tz: 'Europe/Paris',
          days: [1, 2, 3, 4, 5, 6, 7],
          applies_to: 'marketing',
        },
        tracking: { opens: false, clicks: true },
      },
      from_email: 'hello@shop.example',
      api_key_hint: 'sk_shop_… (notifyd 0.x key)',
    });
    expect(
      await t.db.sql(
        `SELECT channel, scope_kind, scope, enabled FROM subscriber_preferences WHERE project_id = 'shop' ORDER BY subscriber_id, channel, scope`,
      ),
    ).toEqual([
      { channel: 'email', scope_kind: 'topic', scope: 'tips', enabled: false },
      { channel: 'sms', scope_kind: 'all', scope: '*', enabled: false },
      { channel: '*', scope_kind: 'workflow', scope: 'onboarding', enabled: false },
      { channel: 'email', scope_kind: 'topic', scope: 'order-updates', enabled: true },
    ]);
    expect(
      await t.db.sql(
        `SELECT address, scope, reason, source, released_at IS NOT NULL AS released FROM suppressions WHERE project_id = 'shop' ORDER BY address`,
      ),
    ).toEqual([
      { address: 'bounced@example.com', scope: 'all', reason: 'bounce', source: 'notifyd-0x', released: false },
      {
        address: 'news-off@example.com',
        scope: 'marketing',
        reason: 'unsubscribe',
        source: 'notifyd-0x',
        released: false,
      },
      { address: 'old@example.com', scope: 'all', reason: 'manual', source: 'notifyd-0x', released: true },
    ]);
    const [workflow] = await t.db.sql(`SELECT steps FROM workflows WHERE project_id = 'shop' AND id = 'onboarding'`);
    expect(workflow.steps).toEqual([
      { type: 'send', channel: 'email', template_id: 'welcome' },
      { type: 'delay', duration_secs: 3600 },
      { type: 'condition', field: 'inbox.is_read', operator: 'eq', value: true, on_true: 4 },
      { type: 'digest', window_secs: 600, channel: 'in_app', body: '{{item_count}} updates' },
    ]);
    const [hook] = await t.db.sql(
      `SELECT url, events, signature_format, secret_hint FROM webhook_endpoints WHERE id = '00000000-0000-4000-8000-0000000000a1'`,
    );
    expect(hook).toEqual({
      url: 'https://hooks.shop.example/notifyd',
      events: ['job.sent', 'job.failed', 'job.bounced'],
      signature_format: 'notifyd-0x',
      secret_hint: '…6d5e',
    });
  });

  it('a 0.x per-user Telegram bot keeps its route id, chat and webhook (connection id and secret); its token is sealed again', async () => {
    const view = await t.http.get('/v1/telegram/lea').set('X-Api-Key', SHOP_KEY).expect(200);
    expect(view.body.data).toMatchObject({
      bot: {
        route_id: '00000000-0000-4000-8000-0000000000c1',
        bot_username: 'lea_alerts_bot',
        token_hint: '…89ab',
        webhook_registered: true,
      },
      destination: { address_masked: '***0321', verified: true, telegram_thread_id: null },
    });
    const [row] = await t.db.sql<{ bot_token_sealed: string; bot_id: string }>(
      `SELECT bot_token_sealed, bot_id::text FROM telegram_credentials WHERE owner = 'lea'`,
    );
    expect(row.bot_id).toBe('700300100');
    expect(row.bot_token_sealed).toMatch(/^v1\./);
    expect(row.bot_token_sealed).not.toContain('AAFimportedOwnerBotToken');
    const lookup = await t.http
      .post('/v1/telegram/lookup')
      .set('X-Api-Key', SHOP_KEY)
      .send({ owners: ['lea', 'ugo'] })
      .expect(200);
    expect(lookup.body.data).toEqual([
      {
        owner: 'lea',
        route_id: '00000000-0000-4000-8000-0000000000c1',
        address: '555000321',
        telegram_thread_id: null,
        bot_username: 'lea_alerts_bot',
        verified: true,
      },
    ]);
    // Telegram's updates to the bot's 0.x webhook URL are accepted here with 0.x's secret.
    const hook = '/v1/telegram/webhooks/00000000-0000-4000-8000-0000000000d1';
    await t.http
      .post(hook)
      .set('X-Telegram-Bot-Api-Secret-Token', '0x-webhook-secret-of-lea-0123456789')
      .send({ update_id: 1 })
      .expect(200);
    await t.http.post(hook).set('X-Telegram-Bot-Api-Secret-Token', 'wrong').send({ update_id: 1 }).expect(401);
  });

  it('reads the 0.x Telegram tables in keyset pages: a page of one row at a time gives the same summary, with progress per page', async () => {
    const src = new pg.Client({ connectionString: source.url });
    const dest = new pg.Client({ connectionString: t.db.url });
    await Promise.all([src.connect(), dest.connect()]);
    const runner = (c: pg.Client) => ({
      query: async <T>(text: string, params?: unknown[]) => (await c.query(text, params)).rows as T[],
    });
    // Each run in a transaction rolled back, so both see (and would write to) the same database.
    const importWith = async (pageSize: number | undefined) => {
      const progress: [Kind, number][] = [];
      await dest.query('BEGIN');
      try {
        const summary = await import0x(runner(src), runner(dest), {
          pageSize,
          sealWebhookSecret: (_id, secret) => Buffer.from(secret),
          webhookUrlRefusal: () => undefined,
          telegram: {
            open0x: (blob) => open0xBlob(Buffer.from(TELEGRAM_0X_KEY, 'base64'), blob),
            seal: (_project, _owner, field, value) => `test.${field}.${value.length}`,
            keyId: 'test',
          },
          onProgress: (kind, rows) => progress.push([kind, rows]),
        });
        return { summary, progress };
      } finally {
        await dest.query('ROLLBACK');
      }
    };
    try {
      const whole = await importWith(undefined);
      const paged = await importWith(1);
      expect(paged.summary).toEqual(whole.summary);
      expect(whole.summary.counts.telegram_routes.read).toBe(3);
      const telegram = (p: [Kind, number][]) => p.filter(([kind]) => kind.startsWith('telegram_'));
      expect(telegram(whole.progress)).toEqual([
        ['telegram_routes', 3],
        ['telegram_chats', 2],
      ]);
      expect(telegram(paged.progress)).toEqual([
        ['telegram_routes', 1],
        ['telegram_routes', 2],
        ['telegram_routes', 3],
        ['telegram_chats', 1],
        ['telegram_chats', 2],
      ]);
    } finally {
      await Promise.all([src.end(), dest.end()]);
    }
  });

  it('the 0.x keys work against the import: primary and secondary, on the REST API', async () => {
    for (const key of [SHOP_KEY, SHOP_SECONDARY]) {
      const ana = await t.http.get('/v1/subscribers/ana').set('X-Api-Key', key);
      expect(ana.status).toBe(200);
      expect(ana.body).toMatchObject({
        id: 'ana',
        email: 'ana@example.com',
        phone: '+33612345678',
        locale: 'es-MX',
        timezone: 'America/Mexico_City',
        data: { plan: 'pro' },
      });
    }
    expect(
      (await t.http.get('/v1/subscribers/ana').set('X-Api-Key', 'sk_shop_00000000000000000000000000000000')).status,
    ).toBe(401);
    // An imported template sends; an imported suppression holds; an imported preference holds.
    const sent = await t.http
      .post('/v1/send')
      .set('Authorization', `Bearer ${SHOP_KEY}`)
      .send({ subscriber_id: 'ana', channels: ['email'], template: 'welcome', vars: { first_name: 'Ana' } });
    expect(sent.status).toBe(200);
    expect(sent.body.job_ids).toHaveLength(1);
    const tips = await t.http
      .post('/v1/send')
      .set('X-Api-Key', SHOP_KEY)
      .send({ subscriber_id: 'ana', channels: ['email'], template: 'weekly' });
    expect(tips.body.job_ids).toEqual([]);
    expect(tips.body.skipped[0].reason).toMatch(/opted out of topic 'tips'/);
    const bounced = await t.http
      .post('/v1/send')
      .set('X-Api-Key', SHOP_KEY)
      .send({ to: 'bounced@example.com', channels: ['email'], body: 'hi' });
    expect(bounced.body.job_ids).toEqual([]);
  });

  it('a 0.x inbox client works against the import: ticket as ?token=, default message events {type: new_notification | count_update}', async () => {
    // What 0.x's front-end does: a ticket with the project key, then EventSource(…/stream?token=<ticket>) and onmessage.
    const ticket = await t.http.post('/v1/inbox/ana/stream-ticket').set('X-Api-Key', SHOP_KEY);
    expect(ticket.status).toBe(200);
    expect(ticket.body).toMatchObject({ ticket: expect.any(String), expires_in_seconds: 60 });
    const stream = await SseClient.open(`${t.url}/v1/inbox/ana/stream?token=${ticket.body.ticket}`);
    try {
      expect(stream.status).toBe(200);
      const initial = await stream.next((e) => e.data.type === 'count_update');
      expect(initial).toMatchObject({ event: 'message', data: { type: 'count_update', unread_count: 0 } });
      const sent = await t.http
        .post('/v1/send')
        .set('X-Api-Key', SHOP_KEY)
        .send({
          subscriber_id: 'ana',
          channels: ['in_app'],
          body: 'Your order shipped',
          url: 'https://shop.example/o/1',
        });
      expect(sent.body.job_ids).toHaveLength(1);
      await t.worker.drainOnce();
      const created = await stream.next((e) => e.data.type === 'new_notification');
      expect(created.event).toBe('message');
      expect(created.data.notification).toEqual({
        id: expect.any(String),
        body: 'Your order shipped',
        icon: 'bell',
        url: 'https://shop.example/o/1',
        created_at: expect.any(String),
        is_read: false,
        is_todo: false,
      });
      expect((await stream.next((e) => e.data.type === 'count_update' && e.data.unread_count === 1)).event).toBe(
        'message',
      );
      // Reading it (0.x's PATCH {read: true}) brings the count back down; no named events ever reach a 0.x client.
      await t.http
        .patch(`/v1/inbox/ana/${created.data.notification.id}`)
        .set('X-Api-Key', SHOP_KEY)
        .send({ read: true })
        .expect(200);
      await stream.next((e) => e.data.type === 'count_update' && e.data.unread_count === 0);
      expect(
        stream.events.every((e) => e.event === 'message' && ['new_notification', 'count_update'].includes(e.data.type)),
      ).toBe(true);
    } finally {
      stream.close();
    }
    // A current client (?ticket=) still gets notifyd's named events.
    const current = (await t.http.post('/v1/inbox/ana/stream-ticket').set('X-Api-Key', SHOP_KEY)).body.ticket;
    const named = await SseClient.open(`${t.url}/v1/inbox/ana/stream?ticket=${current}`);
    try {
      expect((await named.next((e) => e.event === 'counts')).data).toMatchObject({ unread_count: 0 });
    } finally {
      named.close();
    }
  });

  it('links 0.x sent for an imported project keep working (JWT_LEGACY_SECRET)', async () => {
    const payload = `shop|ana@example.com|${Math.floor(Date.now() / 1000) + 86_400}`;
    const token = `${Buffer.from(payload).toString('base64url')}.${createHmac('sha256', OLD_SECRET).update(payload).digest('base64url')}`;
    expect((await t.http.get(`/u/${token}`)).status).toBe(200);
    await t.http
      .post(`/u/${token}`)
      .set('Content-Type', 'application/x-www-form-urlencoded')
      .send('List-Unsubscribe=One-Click')
      .expect(200);
    expect(
      await t.db.sql(
        `SELECT scope, reason FROM suppressions WHERE project_id = 'shop' AND address = 'ana@example.com' AND released_at IS NULL`,
      ),
    ).toEqual([{ scope: 'marketing', reason: 'unsubscribe' }]);
  });

  it('a second run changes nothing; a later change in 0.x is carried by the next run', async () => {
    const before = await t.db.sql(`SELECT xmin::text, project_id, id FROM subscribers ORDER BY id`);
    const again = await importJson();
    for (const [kind, c] of Object.entries(again.counts))
      expect({ kind, created: c.created, updated: c.updated }).toEqual({ kind, created: 0, updated: 0 });
    expect(await t.db.sql(`SELECT xmin::text, project_id, id FROM subscribers ORDER BY id`)).toEqual(before);
    // The import leaves alone what notifyd did since: the suppression from the link above stays.
    expect(await t.db.sql(`SELECT count(*)::int AS n FROM suppressions WHERE address = 'ana@example.com'`)).toEqual([
      { n: 1 },
    ]);

    await source.sql(`UPDATE subscribers SET email = 'ana.lopez@example.com' WHERE id = 'ana'`);
    const third = await importJson();
    expect(third.counts.subscribers).toMatchObject({ created: 0, updated: 1, unchanged: 2 });
    expect((await t.http.get('/v1/subscribers/ana').set('X-Api-Key', SHOP_KEY)).body.email).toBe(
      'ana.lopez@example.com',
    );
  });

  it('leaves out a 0.x project whose id already exists here with another key, and says so', async () => {
    await source.sql(
      `INSERT INTO projects (id, name, api_key_hash) VALUES ('taken', 'Taken', encode(digest('sk_taken_11111111111111111111111111111111', 'sha256'), 'hex'))`,
    );
    await source.sql(`INSERT INTO subscribers (project_id, id, email) VALUES ('taken', 'x1', 'x1@example.com')`);
    await t.http
      .post('/v1/admin/projects')
      .set('X-Api-Key', ADMIN_KEY)
      .send({ id: 'taken', name: 'Created here' })
      .expect(201);
    const s = await importJson();
    expect(s.skipped).toContain(
      "project 'taken' already exists here with another key: rename or delete it here, then import again (its rows are left out)",
    );
    expect(await t.db.sql(`SELECT name FROM projects WHERE id = 'taken'`)).toEqual([{ name: 'Created here' }]);
    expect(await t.db.sql(`SELECT count(*)::int AS n FROM subscribers WHERE project_id = 'taken'`)).toEqual([{ n: 0 }]);
  });
});
