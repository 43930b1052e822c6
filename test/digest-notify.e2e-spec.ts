import { DigestNotifier } from '../src/digest/notify/digest-notifier.service.js';
import { PeriodicTasks } from '../src/periodic/periodic-tasks.service.js';
import { WebhookReceiver } from './fakes/webhook-receiver.js';
import { installLoopbackOnlyGuard } from './helpers/loopback-only.js';
import { ADMIN_KEY, READONLY_KEY, startTestApp, type TestApp } from './helpers/test-app.js';

const BOT_TOKEN = '123456:ABCDEFGHIJKLMNOPQRSTUVWXYZabcdef';

/** Digest notifications to Slack, Discord and Telegram (fakes speaking their wire format on loopback). */
describe('digest notifications', () => {
  let t: TestApp;
  const receiver = new WebhookReceiver();
  let base: string;
  // A bug in the URL checks must fail here, not reach a private address.
  let guard: ReturnType<typeof installLoopbackOnlyGuard>;

  beforeAll(async () => {
    guard = installLoopbackOnlyGuard();
    base = await receiver.start();
    t = await startTestApp({
      env: {
        OUTBOUND_ALLOW_LOOPBACK: 'true',
        DIGEST_NOTIFY: `slack:${base}/services/T000/B000/secret`,
        DIGEST_NOTIFY_LEVEL: 'critical',
        DIGEST_NOTIFY_TELEGRAM_BOT_TOKEN: BOT_TOKEN,
        DIGEST_NOTIFY_TELEGRAM_API_URL: base,
      },
    });
  });
  afterAll(async () => {
    await t?.close();
    await receiver.stop();
    guard.restore();
  });
  beforeEach(() => receiver.reset());

  const notify = (body: object, key = ADMIN_KEY) =>
    t.http.post('/v1/admin/digest/notify').set('X-Api-Key', key).send(body);

  it('sends to the configured Slack webhook by default: headline, ranked findings with their actions', async () => {
    const res = await notify({ window: '1h' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, provider: 'slack', provider_message_id: null, window: '1h' });
    expect(receiver.received).toHaveLength(1);
    const { path, body } = receiver.received[0];
    expect(path).toBe('/services/T000/B000/secret');
    const text = JSON.parse(body).text as string;
    expect(text.split('\n')[0]).toBe(`notifyd: ${res.body.summary.critical} critical`);
    expect(text).toContain('!! EMAIL_PROVIDER is "log"');
    expect(text).toContain('→ Switch EMAIL_PROVIDER');
    const audit = await t.db.sql(
      `SELECT actor, action, metadata FROM audit_log WHERE action = 'digest.notified' ORDER BY id DESC LIMIT 1`,
    );
    expect(audit[0]).toMatchObject({ actor: 'admin', metadata: { window: '1h', provider: 'slack' } });
    expect(JSON.stringify(audit[0])).not.toContain('secret');
  });

  it('sends to Discord with wait=true and returns the message id', async () => {
    receiver.script = () => ({
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: '112233' }),
    });
    const res = await notify({ to: `discord:${base}/api/webhooks/1/tok` });
    expect(res.body).toMatchObject({ success: true, provider: 'discord', provider_message_id: '112233' });
    expect(receiver.received[0].path).toBe('/api/webhooks/1/tok?wait=true');
    expect(JSON.parse(receiver.received[0].body).content).toMatch(/^notifyd: \d+ critical/);
  });

  it('sends to Telegram through the Bot API', async () => {
    receiver.script = () => ({
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ok: true, result: { message_id: 42 } }),
    });
    const res = await notify({ to: 'telegram:-1001234567890' });
    expect(res.body).toMatchObject({ success: true, provider: 'telegram', provider_message_id: '42' });
    expect(receiver.received[0].path).toBe(`/bot${BOT_TOKEN}/sendMessage`);
    expect(JSON.parse(receiver.received[0].body)).toMatchObject({ chat_id: '-1001234567890' });
  });

  it('a refusal is a 502 that names the provider, never the webhook URL', async () => {
    receiver.script = () => ({ status: 500 });
    const res = await notify({ to: `slack:${base}/services/T/B/topsecret` });
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({ error: 'digest_notify_failed', provider: 'slack' });
    expect(res.body.message).toContain('HTTP 500');
    expect(JSON.stringify(res.body)).not.toContain('topsecret');
  });

  it('refuses bad targets with 422 before any connection, and the read-only key with 403', async () => {
    const bad = await notify({ to: 'pager:123' });
    expect(bad.status).toBe(422);
    expect(bad.body.message).toContain('slack:<incoming webhook URL>');
    const privateUrl = await notify({ to: 'slack:http://10.1.2.3/hook' });
    expect(privateUrl.status).toBe(422);
    expect(privateUrl.body.error).toBe('unsafe_url');
    expect((await notify({ window: '2h' })).status).toBe(400);
    expect((await notify({}, READONLY_KEY)).status).toBe(403);
    expect(receiver.connections).toBe(0); // the loopback canary saw nothing
    expect(guard.attempts.filter((host) => !/^(127\.|::1|::ffff:127\.|localhost$)/.test(host))).toEqual([]);
  });

  it('the scheduled run sends only when a finding reaches DIGEST_NOTIFY_LEVEL, once per tick across replicas', async () => {
    const notifier = t.notifyd.app.get(DigestNotifier);
    const run = await notifier.scheduled();
    expect(run).toMatchObject({ sent: true, provider: 'slack', window: '24h' }); // EMAIL_PROVIDER=log is critical
    expect(receiver.received).toHaveLength(1);

    // A second replica of the same instance: the tick is claimed once between them.
    const replica = await startTestApp({
      database: t.db,
      env: { OUTBOUND_ALLOW_LOOPBACK: 'true', DIGEST_NOTIFY: `slack:${base}/services/T000/B000/secret` },
    });
    try {
      const periodic = [t.notifyd.app.get(PeriodicTasks), replica.notifyd.app.get(PeriodicTasks)];
      let ran = 0;
      const task = async () => void ran++;
      const results = await Promise.all([...periodic, ...periodic].map((p) => p.runIfDue('digest-test', 60_000, task)));
      expect(results.filter(Boolean)).toHaveLength(1);
      expect(ran).toBe(1);
      expect(await periodic[1].runIfDue('digest-test', 60_000, task)).toBe(false);
      const [row] = await t.db.sql(`SELECT runs::int AS runs, last_ok FROM periodic_runs WHERE task = 'digest-test'`);
      expect(row).toEqual({ runs: 1, last_ok: true });
    } finally {
      await replica.close();
    }
  });
});
