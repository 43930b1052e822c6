import { createHmac } from 'node:crypto';
import { WebhookDeliveryWorker } from '../src/webhooks/delivery/webhook-delivery.worker.js';
import { WebhookReceiver } from './fakes/webhook-receiver.js';
import { ADMIN_KEY, startTestApp, type TestApp } from './helpers/test-app.js';

/** What notifyd 0.x's callers send, accepted as they are (issue 23: old front-ends and scripts keep working). */
describe('notifyd 0.x request shapes', () => {
  const receiver = new WebhookReceiver();
  let base: string;
  let t: TestApp;
  let project: { id: string; key: string };

  beforeAll(async () => {
    base = await receiver.start();
    // Loopback allowed explicitly: the receiver is this test's own server.
    t = await startTestApp({ env: { OUTBOUND_ALLOW_LOOPBACK: 'true', WEBHOOK_TIMEOUT_MS: '10000' } });
    project = await t.createProject();
  });
  afterAll(async () => {
    await t.close();
    await receiver.stop();
  });

  const patch = (body: Record<string, unknown>) =>
    t.http.patch(`/v1/admin/projects/${project.id}`).set('X-Api-Key', ADMIN_KEY).send(body);
  const settings = async () =>
    (await t.db.sql(`SELECT settings FROM projects WHERE id = $1`, [project.id]))[0].settings;

  it('PATCH of a project takes 0.x’s top-level send_window and tracking, checks them, and null removes them', async () => {
    await patch({ settings: { keep: 1 } }).expect(200);
    const res = await patch({
      send_window: { start: '09:00', end: '18:00', tz: 'Europe/Paris', days: [1, 2, 3, 4, 5] },
      tracking: { opens: false, clicks: true },
    });
    expect(res.status).toBe(200);
    expect(res.body.project.settings).toEqual({
      keep: 1,
      send_window: { start: '09:00', end: '18:00', tz: 'Europe/Paris', days: [1, 2, 3, 4, 5], applies_to: 'marketing' },
      tracking: { opens: false, clicks: true },
    });
    const bad = await patch({ send_window: { start: '9am', end: '18:00' } });
    expect(bad.status).toBe(422);
    expect(bad.body.message).toMatch(/send_window\.start must be a 24-hour time/);
    const badTracking = await patch({ tracking: { opens: 'yes' } });
    expect(badTracking.status).toBe(422);
    expect(badTracking.body.message).toMatch(/^tracking must be true, false, or an object/);
    expect((await patch({ tracking: false, settings: { tracking: true } })).status).toBe(422);
    await patch({ send_window: null, tracking: null }).expect(200);
    expect(await settings()).toEqual({ keep: 1 });
  });

  it('POST /v1/workflows takes 0.x’s step language and stores it in notifyd’s: template → template_id, duration_secs → window_secs', async () => {
    const api = (path: string, body: object) => t.http.post(path).set('X-Api-Key', project.key).send(body);
    await api('/v1/templates', {
      id: 'welcome',
      channel: 'email',
      subject: 'Welcome {{name}}',
      body: 'Hello {{name}}',
    }).expect((r) => expect(r.status).toBeLessThan(300));
    const res = await api('/v1/workflows', {
      id: 'onboarding',
      name: 'Onboarding',
      trigger_event: 'user.signed_up',
      steps: [
        { type: 'send', channel: 'email', template: 'welcome' },
        { type: 'delay', duration_secs: 60 },
        { type: 'digest', duration_secs: 600, channel: 'inapp', body: '{{item_count}} new' },
      ],
    });
    expect(res.status).toBeLessThan(300);
    const [row] = await t.db.sql(`SELECT steps FROM workflows WHERE project_id = $1 AND id = 'onboarding'`, [
      project.id,
    ]);
    expect(row.steps).toEqual([
      { type: 'send', channel: 'email', template_id: 'welcome' },
      { type: 'delay', duration_secs: 60 },
      { type: 'digest', window_secs: 600, channel: 'in_app', body: '{{item_count}} new' },
    ]);
    const missing = await api('/v1/workflows', {
      id: 'x',
      name: 'X',
      trigger_event: 'x',
      steps: [{ type: 'send', channel: 'sms', template: 'welcome' }],
    });
    expect(missing.status).toBe(422);
    expect(missing.body.message).toMatch(/^steps\[0\].template_id: template 'welcome' has no sms variant/);
  });

  it('the inbox list takes 0.x’s offset paging (deprecated) and answers its offset and total; not with a cursor', async () => {
    await t.http.post('/v1/subscribers').set('X-Api-Key', project.key).send({ id: 'pager' }).expect(200);
    for (const body of ['one', 'two', 'three']) {
      await t.http
        .post('/v1/send')
        .set('X-Api-Key', project.key)
        .send({ channels: ['in_app'], subscriber_id: 'pager', body })
        .expect(200);
      await t.worker.drainOnce();
    }
    const page = await t.http.get('/v1/inbox/pager?limit=2&offset=1').set('X-Api-Key', project.key);
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ offset: 1, total: 3, limit: 2 });
    expect(page.body.items.map((m: { body: string }) => m.body)).toEqual(['two', 'one']);
    const plain = await t.http.get('/v1/inbox/pager?limit=2').set('X-Api-Key', project.key);
    expect(plain.body.items.map((m: { body: string }) => m.body)).toEqual(['three', 'two']);
    expect(plain.body).not.toHaveProperty('total');
    const both = await t.http
      .get(`/v1/inbox/pager?offset=1&cursor=${plain.body.next_cursor}`)
      .set('X-Api-Key', project.key);
    expect(both.status).toBe(422);
    expect(both.body.message).toMatch(/offset and cursor cannot be combined/);
  });

  it('a webhook endpoint signed the 0.x way gets X-Notifyd-Signature and 0.x’s top-level fields, beside the Standard Webhooks headers', async () => {
    const secret = '5f2b6c0e9d8a4b3c2d1e0f9a8b7c6d5e';
    const created = await t.http
      .post('/v1/webhooks')
      .set('X-Api-Key', project.key)
      .send({ url: `${base}/hook`, events: ['job.sent'], secret, signature_format: 'notifyd-0x' });
    expect(created.status).toBe(201);
    expect(created.body.webhook ?? created.body).toMatchObject({ signature_format: 'notifyd-0x' });
    await t.http.post('/v1/subscribers').set('X-Api-Key', project.key).send({ id: 'u1' }).expect(200);
    const sent = await t.http
      .post('/v1/send')
      .set('X-Api-Key', project.key)
      .send({ channels: ['in_app'], subscriber_id: 'u1', body: 'hi' });
    await t.worker.drainOnce();
    await t.notifyd.app.get(WebhookDeliveryWorker).drainOnce();
    expect(receiver.received).toHaveLength(1);
    const [hook] = receiver.received;
    // Verified as a 0.x receiver verifies: hex HMAC-SHA256 of the raw body keyed by the secret's bytes.
    expect(hook.headers['x-notifyd-signature']).toBe(createHmac('sha256', secret).update(hook.body).digest('hex'));
    expect(hook.headers['webhook-signature']).toMatch(/^v1,/);
    const body = JSON.parse(hook.body);
    expect(body).toMatchObject({
      event: 'job.sent',
      job_id: sent.body.job_ids[0],
      channel: 'in_app',
      subscriber_id: 'u1',
      type: 'job.sent',
      timestamp: expect.any(String),
    });
    const bad = await t.http
      .post('/v1/webhooks')
      .set('X-Api-Key', project.key)
      .send({ url: `${base}/hook`, events: ['job.sent'], secret: 'short', signature_format: 'notifyd-0x' });
    expect(bad.status).toBe(422);
    // A standard endpoint gets neither.
    const plain = await t.http
      .post('/v1/webhooks')
      .set('X-Api-Key', project.key)
      .send({ url: `${base}/plain`, events: ['job.sent'] });
    expect(plain.body.webhook?.signature_format ?? plain.body.signature_format).toBe('standard');
  });
});
