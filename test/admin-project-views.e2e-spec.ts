import { SseClient } from './helpers/sse-client.js';
import { ADMIN_KEY, READONLY_KEY, startTestApp, type TestApp } from './helpers/test-app.js';

/**
 * The admin views the console's Subscribers, Templates, Webhooks and Workflows pages read
 * (/v1/admin/projects/:id/…, /v1/admin/webhooks/:id/deliveries), and the admin event stream the
 * Digest and Lanes pages listen to (/v1/admin/events): the read-only key and the read-only
 * console session read and preview but are refused every change; addresses are masked; a lane
 * pause reaches an open stream.
 */
describe('admin project views and the admin event stream', () => {
  let t: TestApp;
  let project: { id: string; key: string };

  beforeAll(async () => {
    t = await startTestApp({ env: { OUTBOUND_ALLOW_LOOPBACK: 'true' } });
    project = await t.createProject('shop');
    const as = (path: string, body: object) => t.http.post(path).set('X-Api-Key', project.key).send(body);
    expect((await as('/v1/subscribers', { id: 'u1', email: 'jane@example.com', phone: '+33612345678' })).status).toBe(
      200,
    );
    expect(
      (await as('/v1/templates', { id: 'hello', channel: 'email', subject: 'Hi {{ name }}', body: 'Hello {{ name }}' }))
        .status,
    ).toBe(200);
  });
  afterAll(async () => {
    await t?.close();
  });

  const admin = (method: 'get' | 'post', path: string, key = ADMIN_KEY) => t.http[method](path).set('X-Api-Key', key);

  it('reads a project’s subscribers with email and phone masked; an unknown project is a 404', async () => {
    const list = await admin('get', '/v1/admin/projects/shop/subscribers', READONLY_KEY).query({ q: 'jane' });
    expect(list.status).toBe(200);
    expect(list.body.items).toEqual([
      expect.objectContaining({ id: 'u1', email: 'j***@example.com', phone: '***5678' }),
    ]);
    expect((await admin('get', '/v1/admin/projects/shop/subscribers/u1/preferences', READONLY_KEY)).body).toEqual({
      subscriber_id: 'u1',
      preferences: [],
    });
    expect((await admin('get', '/v1/admin/projects/nope/subscribers')).status).toBe(404);
    expect((await admin('get', '/v1/admin/projects/shop/subscribers').query({ limit: 1000 })).status).toBe(422);
    expect((await t.http.get('/v1/admin/projects/shop/subscribers').set('X-Api-Key', project.key)).status).toBe(403);
  });

  it('answers 404 for an unknown project on every project view, after the request itself is validated', async () => {
    const notFound = { error: 'not_found', message: "Project 'nope' was not found" };
    for (const path of [
      '/v1/admin/projects/nope/subscribers/u1',
      '/v1/admin/projects/nope/subscribers/u1/preferences',
      '/v1/admin/projects/nope/templates',
      '/v1/admin/projects/nope/templates/hello',
    ]) {
      const read = await admin('get', path, READONLY_KEY);
      expect({ path, status: read.status, body: read.body }).toEqual({ path, status: 404, body: notFound });
    }
    const save = await admin('post', '/v1/admin/projects/nope/templates').send({
      id: 'hello',
      channel: 'email',
      body: 'Hi',
    });
    expect({ status: save.status, body: save.body }).toEqual({ status: 404, body: notFound });
    // An invalid request is refused as such first, as when the handler looked the project up.
    expect((await admin('post', '/v1/admin/projects/nope/templates').send({ id: 'hello' })).status).toBe(422);
    expect((await admin('get', '/v1/admin/projects/nope/subscribers').query({ limit: 1000 })).status).toBe(422);
  });

  it('pages a project’s workflow runs for operators, newest first, with the cursor of the next page', async () => {
    const as = (path: string, body: object) => t.http.post(path).set('X-Api-Key', project.key).send(body);
    const steps = [{ type: 'delay', duration_secs: 3600 }];
    expect((await as('/v1/workflows', { id: 'greet', name: 'Greet', trigger_event: 'greet.now', steps })).status).toBe(
      200,
    );
    const [older] = (await as('/v1/workflows/trigger', { event: 'greet.now', subscriber_id: 'u1' })).body.workflow_runs;
    const [newer] = (await as('/v1/workflows/trigger', { event: 'greet.now', subscriber_id: 'u1' })).body.workflow_runs;
    const runs = '/v1/admin/projects/shop/workflows/runs';
    const first = await admin('get', runs, READONLY_KEY).query({ workflow_id: 'greet', limit: 1 });
    expect(first.body).toEqual({
      items: [expect.objectContaining({ id: newer, workflow_id: 'greet', subscriber_id: 'u1' })],
      next_cursor: expect.any(String),
      limit: 1,
    });
    const second = await admin('get', runs, READONLY_KEY).query({
      workflow_id: 'greet',
      cursor: first.body.next_cursor,
    });
    expect(second.body).toEqual({ items: [expect.objectContaining({ id: older })], next_cursor: null, limit: 50 });
    expect((await admin('get', '/v1/admin/projects/nope/workflows/runs')).status).toBe(404);
  });

  it('withholds each subscriber’s data values from the read-only key and session; the admin key reads them', async () => {
    const secret = 'https://hooks.slack.com/services/T000/B000/secretsecret';
    expect(
      (
        await t.http
          .post('/v1/subscribers')
          .set('X-Api-Key', project.key)
          .send({
            id: 'u_data',
            email: 'dana@example.com',
            phone: '+33687654321',
            data: { slack: secret, plan: 'pro' },
          })
      ).status,
    ).toBe(200);
    const session = await t.http.post('/console/session').send({ key: READONLY_KEY });
    const cookie = String(session.headers['set-cookie']).split(';')[0];
    const withheld = {
      id: 'u_data',
      email: 'd***@example.com',
      phone: '***4321',
      data: {},
      withheld_data_keys: ['plan', 'slack'],
    };
    for (const reader of [
      (path: string) => admin('get', path, READONLY_KEY),
      (path: string) => t.http.get(path).set('Cookie', cookie),
    ]) {
      const one = await reader('/v1/admin/projects/shop/subscribers/u_data');
      expect(one.status).toBe(200);
      // toMatchObject takes `data: {}` for any object: the values' absence is checked with toEqual.
      expect(one.body).toMatchObject(withheld);
      expect(one.body.data).toEqual({});
      const list = await reader('/v1/admin/projects/shop/subscribers');
      expect(list.status).toBe(200);
      const listed = list.body.items.find((s: { id: string }) => s.id === 'u_data');
      expect(listed).toMatchObject(withheld);
      expect(listed.data).toEqual({});
      expect(list.body.items.find((s: { id: string }) => s.id === 'u1')).toMatchObject({
        data: {},
        withheld_data_keys: [],
      });
      expect(JSON.stringify([one.body, list.body])).not.toMatch(/secretsecret|dana@|87654321/);
    }
    const full = await admin('get', '/v1/admin/projects/shop/subscribers/u_data');
    expect(full.body).toMatchObject({
      email: 'd***@example.com',
      phone: '***4321',
      data: { slack: secret, plan: 'pro' },
    });
    expect(full.body).not.toHaveProperty('withheld_data_keys');
    const fullList = await admin('get', '/v1/admin/projects/shop/subscribers').query({ q: 'u_data' });
    expect(fullList.body.items).toEqual([
      expect.objectContaining({ id: 'u_data', data: { slack: secret, plan: 'pro' } }),
    ]);
    expect(fullList.body.items[0]).not.toHaveProperty('withheld_data_keys');
  });

  it('renders a stored subscriber’s profile in a preview for the admin key only (the read-only key gets 403)', async () => {
    const secret = 'https://hooks.slack.com/services/T111/B111/previewsecret';
    expect(
      (
        await t.http
          .post('/v1/subscribers')
          .set('X-Api-Key', project.key)
          .send({ id: 'u_preview', email: 'pia@example.com', data: { slack: secret } })
      ).status,
    ).toBe(200);
    const leak = { subscriber_id: 'u_preview', draft: { body: '{{ subscriber.email }} {{ subscriber.data.slack }}' } };
    const asReader = await admin('post', '/v1/admin/projects/shop/templates/hello/preview', READONLY_KEY).send(leak);
    expect(asReader.status).toBe(403);
    expect(asReader.body.message).toMatch(/subscriber_id.*admin key/);
    expect(JSON.stringify(asReader.body)).not.toContain(secret);
    const asAdmin = await admin('post', '/v1/admin/projects/shop/templates/hello/preview').send(leak);
    expect(asAdmin.status).toBe(200);
    expect(asAdmin.body.body).toBe(`pia@example.com ${secret}`);
  });

  it('previews an unsaved draft without saving it; the read-only key previews but cannot save', async () => {
    const preview = await admin('post', '/v1/admin/projects/shop/templates/hello/preview', READONLY_KEY).send({
      vars: { name: 'Ana' },
      draft: { subject: 'Hey {{ name }}', body: 'Draft for {{ name }}' },
    });
    expect(preview.status).toBe(200);
    expect(preview.body).toMatchObject({ subject: 'Hey Ana', body: 'Draft for Ana', channel: 'email' });
    expect((await admin('get', '/v1/admin/projects/shop/templates/hello')).body.variants[0]).toMatchObject({
      subject: 'Hi {{ name }}',
      body: 'Hello {{ name }}',
    });
    const empty = await admin('post', '/v1/admin/projects/shop/templates/hello/preview').send({ draft: { body: '' } });
    expect(empty.status).toBe(422);
    expect(empty.body.message).toMatch(/draft\.body/);
    const broken = await admin('post', '/v1/admin/projects/shop/templates/hello/preview').send({
      draft: { body: '{% if x %}' },
    });
    expect(broken.body).toMatchObject({ error: 'template_render_failed' });

    const save = { id: 'hello', channel: 'email', subject: 'Hi {{ name }}!', body: 'Hello again {{ name }}' };
    expect((await admin('post', '/v1/admin/projects/shop/templates', READONLY_KEY).send(save)).status).toBe(403);
    expect((await admin('post', '/v1/admin/projects/shop/templates').send(save)).status).toBe(200);
    expect((await admin('get', '/v1/admin/projects/shop/templates/hello', READONLY_KEY)).body.variants[0].body).toBe(
      'Hello again {{ name }}',
    );
    const audit = await t.db.sql(`SELECT actor, action, resource FROM audit_log WHERE action = 'template.saved'`);
    expect(audit).toEqual([{ actor: 'admin', action: 'template.saved', resource: 'hello' }]);
  });

  it('the read-only console session is refused a template save and a redelivery, as the read-only key is', async () => {
    const session = await t.http.post('/console/session').send({ key: READONLY_KEY });
    const cookie = String(session.headers['set-cookie']).split(';')[0];
    const csrf = session.body.csrf_token as string;
    const hook = await t.http
      .post('/v1/webhooks')
      .set('X-Api-Key', project.key)
      .send({ url: 'http://127.0.0.1:9/hook', events: ['job.queued'] });
    expect(
      (
        await t.http
          .post('/v1/send')
          .set('X-Api-Key', project.key)
          .send({ channels: ['email'], to: 'jane@example.com', subject: 's', body: 'b' })
      ).status,
    ).toBe(200);
    await t.db.sql(`UPDATE webhook_deliveries SET status = 'failed'`);
    const deliveries = await t.http.get(`/v1/admin/webhooks/${hook.body.id}/deliveries`).set('Cookie', cookie);
    expect(deliveries.status).toBe(200);
    const deliveryId = deliveries.body.items[0].id;
    expect(
      (
        await t.http
          .post(`/v1/admin/webhooks/${hook.body.id}/deliveries/${deliveryId}/redeliver`)
          .set('Cookie', cookie)
          .set('X-CSRF-Token', csrf)
      ).status,
    ).toBe(403);
    expect(
      (
        await t.http
          .post('/v1/admin/projects/shop/templates')
          .set('Cookie', cookie)
          .set('X-CSRF-Token', csrf)
          .send({ id: 'x', channel: 'email', body: 'b' })
      ).status,
    ).toBe(403);
    const redelivered = await admin('post', `/v1/admin/webhooks/${hook.body.id}/deliveries/${deliveryId}/redeliver`);
    expect(redelivered.body.delivery).toMatchObject({ status: 'pending', attempts: 0 });
  });

  it('the admin event stream needs an operator key or session, and tells an open stream a lane was paused', async () => {
    expect((await SseClient.open(`${t.url}/v1/admin/events`)).status).toBe(401);
    expect((await SseClient.open(`${t.url}/v1/admin/events`, { 'x-api-key': project.key })).status).toBe(403);
    const stream = await SseClient.open(`${t.url}/v1/admin/events`, { 'x-api-key': READONLY_KEY });
    expect(stream.status).toBe(200);
    try {
      expect((await admin('post', '/v1/admin/lanes/sms:log/pause').send({ duration_secs: 60 })).status).toBe(200);
      const lanes = await stream.next((e) => e.event === 'lanes' && e.data.lanes.includes('sms:log'), 20_000);
      expect(lanes.data).toEqual({ lanes: ['sms:log'] });
      await stream.next((e) => e.event === 'digest', 20_000);
    } finally {
      stream.close();
    }
  });
});
