import { Webhook } from 'standardwebhooks';
import { WebhookDeliveryWorker } from '../src/webhooks/delivery/webhook-delivery.worker.js';
import { WebhookDigestSource } from '../src/webhooks/webhook-digest.source.js';
import { WebhookEvents } from '../src/webhooks/webhook-events.service.js';
import { type WebhookReceiver as Receiver, WebhookReceiver } from './fakes/webhook-receiver.js';
import { RecordingConnector, RecordingConnectorModule, permanent } from './helpers/recording-connector.js';
import { ADMIN_KEY, startTestApp, type TestApp } from './helpers/test-app.js';

/** Outbound webhooks end to end: endpoints, Standard Webhooks signatures, queue, retries, etiquette, log. */
describe('outbound webhooks', () => {
  let t: TestApp;
  let receiver: Receiver;
  let base: string;
  let sender: WebhookDeliveryWorker;
  let provider: RecordingConnector;
  let project: { id: string; key: string };

  beforeAll(async () => {
    receiver = new WebhookReceiver();
    base = await receiver.start();
    t = await startTestApp({
      // Loopback allowed explicitly: the receiver is this test's own server.
      env: { OUTBOUND_ALLOW_LOOPBACK: 'true', SMS_PROVIDER: 'recording', WEBHOOK_TIMEOUT_MS: '3000' },
      imports: [RecordingConnectorModule],
    });
    sender = t.notifyd.app.get(WebhookDeliveryWorker);
    provider = t.notifyd.app.get(RecordingConnector);
    project = await t.createProject();
  });
  afterAll(async () => {
    await t.close();
    await receiver.stop();
  });
  beforeEach(async () => {
    receiver.reset();
    provider.reset();
    await t.db.sql(`DELETE FROM webhook_endpoints`);
    await t.db.sql(`DELETE FROM jobs`);
  });

  const create = async (body: Record<string, unknown>, key = project.key) => {
    const res = await t.http
      .post('/v1/webhooks')
      .set('X-Api-Key', key)
      .send({ url: `${base}/hook`, events: ['*'], ...body });
    expect(res.status).toBe(201);
    return res.body as { id: string; secret: string };
  };
  const send = async (body: Record<string, unknown> = {}) => {
    const res = await t.http
      .post('/v1/send')
      .set('X-Api-Key', project.key)
      .send({ channels: ['sms'], to: '+33600000001', body: 'hi', ...body });
    expect(res.status).toBe(200);
    return res.body.job_ids[0] as string;
  };
  const deliveries = async (endpointId: string) =>
    await t.db.sql(`SELECT * FROM webhook_deliveries WHERE endpoint_id = $1 ORDER BY created_at, event_type`, [
      endpointId,
    ]);
  const dueNow = () => t.db.sql(`UPDATE webhook_deliveries SET run_at = now() WHERE status = 'retry'`);
  const verify = (secret: string, r: { headers: Record<string, string>; body: string }) =>
    new Webhook(secret).verify(r.body, r.headers) as Record<string, any>;

  it('manages endpoints: secret shown once, hint afterwards, unknown events and other projects refused', async () => {
    const created = await create({ events: ['job.sent', 'job.failed'], description: 'orders' });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(created).toMatchObject({
      success: true,
      warning: 'Store the secret now: it cannot be shown again (rotate it with POST …/rotate-secret).',
      webhook: { id: created.id, secret_hint: `whsec_…${created.secret.slice(-4)}` },
    });
    const got = await t.http.get(`/v1/webhooks/${created.id}`).set('X-Api-Key', project.key);
    expect(got.status).toBe(200);
    expect(got.body.webhook).toMatchObject({
      url: `${base}/hook`,
      events: ['job.sent', 'job.failed'],
      enabled: true,
      description: 'orders',
    });
    expect(JSON.stringify(got.body)).not.toContain(created.secret.slice(6));
    expect(got.body.webhook.secret_hint).toBe(`whsec_…${created.secret.slice(-4)}`);
    const stored = await t.db.sql(`SELECT secret_enc FROM webhook_endpoints WHERE id = $1`, [created.id]);
    expect(stored[0].secret_enc.toString('latin1')).not.toContain(created.secret.slice(6, 20));

    const bad = await t.http
      .post('/v1/webhooks')
      .set('X-Api-Key', project.key)
      .send({ url: `${base}/x`, events: ['job.exploded'] });
    expect(bad.status).toBe(422);
    expect(bad.body.message).toMatch(
      /events each value in events must be one of job.queued, .*subscriber.preference_changed, suppression.created, \*/,
    );

    const other = await t.createProject();
    for (const [method, path] of [
      ['get', ''],
      ['patch', ''],
      ['delete', ''],
      ['get', '/deliveries'],
      ['post', '/rotate-secret'],
    ] as const) {
      const res = await t.http[method](`/v1/webhooks/${created.id}${path}`).set('X-Api-Key', other.key).send({});
      expect([method, path, res.status, res.body.error]).toEqual([method, path, 404, 'not_found']);
    }
    expect((await t.http.get('/v1/webhooks').set('X-Api-Key', other.key)).body.count).toBe(0);

    const patched = await t.http
      .patch(`/v1/webhooks/${created.id}`)
      .set('X-Api-Key', project.key)
      .send({ events: ['job.queued'], description: null });
    expect(patched.body.webhook).toMatchObject({ events: ['job.queued'], description: null });
    expect((await t.http.delete(`/v1/webhooks/${created.id}`).set('X-Api-Key', project.key)).status).toBe(200);
    expect((await t.http.get(`/v1/webhooks/${created.id}`).set('X-Api-Key', project.key)).status).toBe(404);
    // Every change is audited as the project key, with the caller's address.
    const audit = await t.db.sql(`SELECT action, actor, ip FROM audit_log WHERE resource = $1 ORDER BY id`, [
      created.id,
    ]);
    expect(audit.map((a) => [a.action, a.actor])).toEqual([
      ['webhook.created', 'api_key'],
      ['webhook.updated', 'api_key'],
      ['webhook.deleted', 'api_key'],
    ]);
    for (const entry of audit) expect(entry.ip).toEqual(expect.any(String));
  });

  it('signs every delivery per Standard Webhooks: the reference library verifies, tampering fails', async () => {
    const hook = await create({});
    const onlySent = await create({ url: `${base}/only-sent`, events: ['job.sent'] });
    const jobId = await send();
    await t.worker.drainOnce();
    const round = await sender.drainOnce();
    expect(round).toMatchObject({ claimed: 3, delivered: 3 });

    const all = receiver.received.filter((r) => r.path === '/hook');
    expect(all.map((r) => JSON.parse(r.body).type).sort()).toEqual(['job.queued', 'job.sent']);
    for (const r of all) {
      const payload = verify(hook.secret, r);
      expect(payload.data).toMatchObject({ job_id: jobId, project_id: project.id, channel: 'sms' });
      expect(r.headers['webhook-id']).toMatch(/^msg_[0-9a-f]{32}$/);
      expect(Math.abs(Number(r.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(30);
      expect(() => verify(onlySent.secret, r)).toThrow();
      expect(() => verify(hook.secret, { ...r, body: r.body.replace('"sms"', '"email"') })).toThrow();
    }
    const sent = JSON.parse(all.find((r) => JSON.parse(r.body).type === 'job.sent')!.body);
    expect(sent.data).toMatchObject({ status: 'sent', provider: 'recording', attempts: 1 });
    expect(sent.data).not.toHaveProperty('recipient');
    const filtered = receiver.received.filter((r) => r.path === '/only-sent');
    expect(filtered.map((r) => verify(onlySent.secret, r).type)).toEqual(['job.sent']);
  });

  it('emits job.failed, and job.queued for a batch only when an endpoint wants it', async () => {
    provider.script = () => permanent();
    const hook = await create({ events: ['job.failed'] });
    const jobId = await send();
    await t.worker.drainOnce();
    await sender.drainOnce();
    expect(receiver.received.map((r) => verify(hook.secret, r))).toEqual([
      expect.objectContaining({
        type: 'job.failed',
        data: expect.objectContaining({ job_id: jobId, status: 'failed', error: 'HTTP 422: invalid recipient' }),
      }),
    ]);

    await t.http.post('/v1/subscribers').set('X-Api-Key', project.key).send({ id: 'u1', phone: '+33600000011' });
    await t.http.post('/v1/subscribers').set('X-Api-Key', project.key).send({ id: 'u2', phone: '+33600000012' });
    const batch = () =>
      t.http
        .post('/v1/batch')
        .set('X-Api-Key', project.key)
        .send({ channels: ['sms'], subscribers: ['u1', 'u2'], body: 'x' });
    expect((await batch()).body.jobs_created).toBe(2);
    expect((await sender.drainOnce()).claimed).toBe(0);
    await t.http
      .patch(`/v1/webhooks/${hook.id}`)
      .set('X-Api-Key', project.key)
      .send({ events: ['job.queued'] });
    await t.db.sql(`DELETE FROM jobs`);
    expect((await batch()).body.jobs_created).toBe(2);
    const queued = await deliveries(hook.id);
    expect(queued.filter((d) => d.event_type === 'job.queued')).toHaveLength(2);
  });

  it('job.queued: whether a project wants it is cached per process; a new endpoint reaches this process at once and others by signal', async () => {
    const replica = await startTestApp({
      database: t.db,
      env: { OUTBOUND_ALLOW_LOOPBACK: 'true', SMS_PROVIDER: 'recording', WEBHOOK_TIMEOUT_MS: '3000' },
      imports: [RecordingConnectorModule],
    });
    try {
      const sendVia = async (app: TestApp) =>
        (
          await app.http
            .post('/v1/send')
            .set('X-Api-Key', project.key)
            .send({ channels: ['sms'], to: '+33600000001', body: 'hi' })
            .expect(200)
        ).body.job_ids[0] as string;
      const queuedFor = async (jobId: string) =>
        (
          await t.db.sql(
            `SELECT 1 FROM webhook_deliveries WHERE event_type = 'job.queued' AND payload->'data'->>'job_id' = $1`,
            [jobId],
          )
        ).length;
      expect(await queuedFor(await sendVia(replica))).toBe(0); // no endpoint yet: the replica remembers "none"
      await create({ events: ['job.queued'] });
      expect(await queuedFor(await sendVia(t))).toBe(1); // the process that created it: at once
      const deadline = Date.now() + 20_000;
      while (!(await queuedFor(await sendVia(replica)))) {
        if (Date.now() > deadline) throw new Error('the replica never emitted job.queued for the new endpoint');
        await new Promise((r) => setTimeout(r, 50));
      }
    } finally {
      await replica.close();
    }
  });

  it('lets other modules emit events (subscriber.preference_changed) through WebhookEvents', async () => {
    const hook = await create({ events: ['subscriber.preference_changed'] });
    const other = await t.createProject();
    await create({ events: ['*'], url: `${base}/other` }, other.key);
    const events = t.notifyd.app.get(WebhookEvents);
    expect(
      await events.emit(project.id, 'subscriber.preference_changed', {
        subscriber_id: 'u1',
        preferences: [{ channel: 'email', enabled: false }],
      }),
    ).toBe(1);
    expect(await events.emit(project.id, 'job.opened', { job_id: 'x' })).toBe(0);
    await expect(events.emit(project.id, 'job.exploded' as never, {})).rejects.toThrow(/unknown webhook event/);
    await sender.drainOnce();
    expect(receiver.received).toHaveLength(1);
    expect(verify(hook.secret, receiver.received[0])).toMatchObject({
      type: 'subscriber.preference_changed',
      data: { subscriber_id: 'u1' },
    });
  });

  it('retries failures with one webhook-id and a new timestamp per attempt, logs every attempt, honours Retry-After', async () => {
    const hook = await create({ events: ['job.sent'] });
    receiver.script = (_, i) => (i < 2 ? { status: 503, body: 'down for maintenance' } : { status: 200 });
    await send();
    await t.worker.drainOnce();
    for (let i = 0; i < 3; i++) {
      if (i) await new Promise((r) => setTimeout(r, 1_050)); // timestamps are whole seconds
      await dueNow();
      await sender.drainOnce();
    }
    expect(receiver.received).toHaveLength(3);
    expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(1);
    expect(new Set(receiver.received.map((r) => r.headers['webhook-timestamp'])).size).toBe(3);
    for (const r of receiver.received) expect(verify(hook.secret, r).type).toBe('job.sent');
    expect(new Set(receiver.received.map((r) => r.body)).size).toBe(1);

    const log = await t.http.get(`/v1/webhooks/${hook.id}/deliveries`).set('X-Api-Key', project.key);
    expect(log.status).toBe(200);
    const [item] = log.body.items;
    expect(item).toMatchObject({
      status: 'delivered',
      attempts: 3,
      last_status_code: 200,
      webhook_id: receiver.received[0].headers['webhook-id'],
    });
    expect(item.attempt_log.map((a: { status_code: number }) => a.status_code)).toEqual([503, 503, 200]);
    expect(item.attempt_log[0].error).toBe('HTTP 503: down for maintenance');

    receiver.script = () => ({ status: 429, headers: { 'retry-after': '120' } });
    await send({ to: '+33600000002' });
    await t.worker.drainOnce();
    await sender.drainOnce();
    const [limited] = await t.db.sql(`SELECT * FROM webhook_deliveries WHERE status = 'retry'`);
    expect(new Date(limited.run_at).getTime() - Date.now()).toBeGreaterThan(110_000);
    receiver.script = () => ({ status: 500 });
    await send({ to: '+33600000003' });
    await t.worker.drainOnce();
    // The failure happens within this drain: its retry is 5 s ± 20 % after it, measured from
    // either end of the drain (not from a later now(), which a loaded machine pushes back).
    const failedFrom = Date.now();
    await sender.drainOnce();
    const failedBy = Date.now();
    const [plain] = await t.db.sql(
      `SELECT * FROM webhook_deliveries WHERE status = 'retry' AND last_status_code = 500`,
    );
    const runAt = new Date(plain.run_at).getTime();
    expect(runAt).toBeGreaterThanOrEqual(failedFrom + 4_000 - 50);
    expect(runAt).toBeLessThanOrEqual(failedBy + 6_000 + 50);
  });

  it('a redirect is a failure and is never followed (the target sees no connection)', async () => {
    const canary = new WebhookReceiver();
    const canaryUrl = await canary.start();
    try {
      await create({ events: ['job.sent'] });
      receiver.script = () => ({ status: 302, headers: { location: `${canaryUrl}/internal?token=abc` } });
      await send();
      await t.worker.drainOnce();
      expect(await sender.drainOnce()).toMatchObject({ claimed: 1, retried: 1, delivered: 0 });
      const [row] = await t.db.sql(`SELECT * FROM webhook_deliveries`);
      expect(row).toMatchObject({ status: 'retry', last_status_code: 302 });
      expect(row.last_error).toBe(
        `HTTP 302 redirect to 127.0.0.1:${canary.port} not followed; register the final URL instead`,
      );
      expect(canary.connections).toBe(0);
    } finally {
      await canary.stop();
    }
  });

  it('an attempt that gets no answer within WEBHOOK_TIMEOUT_MS fails and is retried', async () => {
    await create({ events: ['job.sent'] });
    receiver.script = () => 'hang';
    await send();
    await t.worker.drainOnce();
    const started = Date.now();
    expect(await sender.drainOnce()).toMatchObject({ retried: 1 });
    // Ended by the 3 s timeout, not the 15 s default nor never; 7 s to spare for a loaded machine.
    expect(Date.now() - started).toBeLessThan(10_000);
    const [row] = await t.db.sql(`SELECT * FROM webhook_deliveries`);
    expect(row.last_error).toBe('no answer within WEBHOOK_TIMEOUT_MS (3000 ms)');
  });

  it('410 Gone disables the endpoint, cancels what is queued, shows in the digest; an operator re-enables it', async () => {
    const hook = await create({ events: ['job.queued', 'job.sent'] });
    receiver.script = () => ({ status: 410 });
    await send();
    await send({ to: '+33600000002' });
    await t.db.sql(
      `UPDATE webhook_deliveries SET run_at = now() + interval '1 hour' WHERE event_type = 'job.queued' AND id <> (SELECT id FROM webhook_deliveries ORDER BY created_at LIMIT 1)`,
    );
    const round = await sender.drainOnce();
    expect(round.disabledEndpoints).toEqual([hook.id]);
    const got = (await t.http.get(`/v1/webhooks/${hook.id}`).set('X-Api-Key', project.key)).body.webhook;
    expect(got).toMatchObject({ enabled: false });
    expect(got.disabled_reason).toMatch(/^HTTP 410 Gone/);
    const rows = await deliveries(hook.id);
    expect(rows.map((r) => r.status).sort()).toEqual(['cancelled', 'failed']);

    // Disabled: new events are not queued for it.
    await t.worker.drainOnce();
    expect((await deliveries(hook.id)).length).toBe(2);
    const digest = await t.notifyd.app.get(WebhookDigestSource).disabledEndpoints();
    expect(digest).toEqual([
      expect.objectContaining({
        id: hook.id,
        projectId: project.id,
        host: `127.0.0.1:${receiver.port}`,
        reason: expect.stringMatching(/410/),
      }),
    ]);

    const readonly = await t.http
      .patch(`/v1/admin/webhooks/${hook.id}`)
      .set('X-Api-Key', 'test-readonly-key-0123456789abcd')
      .send({ enabled: true });
    expect(readonly.status).toBe(403);
    const enabled = await t.http
      .patch(`/v1/admin/webhooks/${hook.id}`)
      .set('X-Api-Key', ADMIN_KEY)
      .send({ enabled: true });
    expect(enabled.body.webhook).toMatchObject({ enabled: true, disabled_at: null, disabled_reason: null });
    expect(await t.notifyd.app.get(WebhookDigestSource).disabledEndpoints()).toEqual([]);
  });

  it('a delivery that fails for a day (every attempt) fails and disables an endpoint with no success since', async () => {
    const hook = await create({ events: ['job.sent'] });
    receiver.script = () => ({ status: 500 });
    await send();
    await t.worker.drainOnce();
    await t.db.sql(`UPDATE webhook_deliveries SET attempts = max_attempts - 1`);
    expect(await sender.drainOnce()).toMatchObject({ failed: 1, disabledEndpoints: [hook.id] });
    const [row] = await deliveries(hook.id);
    expect(row.status).toBe('failed');
    expect(row.last_error).toBe('HTTP 500 (gave up after 10 attempts)');
    expect(
      (await t.http.get(`/v1/webhooks/${hook.id}`).set('X-Api-Key', project.key)).body.webhook.disabled_reason,
    ).toMatch(/every attempt failed for a day/);
  });

  it('rotation signs with both secrets during the overlap, then with the new one only', async () => {
    const hook = await create({ events: ['job.sent'] });
    const rotated = await t.http
      .post(`/v1/webhooks/${hook.id}/rotate-secret`)
      .set('X-Api-Key', project.key)
      .send({ overlap_seconds: 3600 });
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).not.toBe(hook.secret);
    expect(new Date(rotated.body.previous_secret_valid_until).getTime()).toBeGreaterThan(Date.now() + 3_500_000);
    await send();
    await t.worker.drainOnce();
    await sender.drainOnce();
    const during = receiver.received[0];
    expect(during.headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(verify(hook.secret, during).type).toBe('job.sent');
    expect(verify(rotated.body.secret, during).type).toBe('job.sent');

    const again = await t.http
      .post(`/v1/webhooks/${hook.id}/rotate-secret`)
      .set('X-Api-Key', project.key)
      .send({ overlap_seconds: 0 });
    receiver.reset();
    await send({ to: '+33600000002' });
    await t.worker.drainOnce();
    await sender.drainOnce();
    const after = receiver.received[0];
    expect(after.headers['webhook-signature'].split(' ')).toHaveLength(1);
    expect(verify(again.body.secret, after).type).toBe('job.sent');
    expect(() => verify(rotated.body.secret, after)).toThrow();
  });

  it('the delivery log pages with a cursor, filters by status, and a failed delivery can be sent again', async () => {
    const hook = await create({ events: ['job.queued'] });
    for (let i = 0; i < 5; i++) await send({ to: `+3360000010${i}` });
    receiver.script = (_, i) => (i === 0 ? { status: 410 } : { status: 200 });
    await t.db.sql(
      `UPDATE webhook_deliveries SET status = 'failed' WHERE id = (SELECT id FROM webhook_deliveries ORDER BY created_at LIMIT 1)`,
    );
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { body: { items: { id: string }[]; next_cursor: string | null } } = await t.http
        .get(`/v1/webhooks/${hook.id}/deliveries`)
        .query({ limit: 2, ...(cursor ? { cursor } : {}) })
        .set('X-Api-Key', project.key);
      seen.push(...page.body.items.map((i) => i.id));
      cursor = page.body.next_cursor;
    } while (cursor);
    expect(seen).toHaveLength(5);
    expect(new Set(seen).size).toBe(5);
    const failed = await t.http
      .get(`/v1/webhooks/${hook.id}/deliveries`)
      .query({ status: 'failed' })
      .set('X-Api-Key', project.key);
    expect(failed.body.items).toHaveLength(1);
    const bad = await t.http
      .get(`/v1/webhooks/${hook.id}/deliveries`)
      .query({ cursor: 'nonsense' })
      .set('X-Api-Key', project.key);
    expect(bad.status).toBe(400);

    const id = failed.body.items[0].id;
    const one = await t.http.get(`/v1/webhooks/${hook.id}/deliveries/${id}`).set('X-Api-Key', project.key);
    expect(one.body.delivery.payload.type).toBe('job.queued');
    const again = await t.http.post(`/v1/webhooks/${hook.id}/deliveries/${id}/redeliver`).set('X-Api-Key', project.key);
    expect(again.body.delivery).toMatchObject({ status: 'pending', attempts: 0 });
    expect(
      (await t.http.post(`/v1/webhooks/${hook.id}/deliveries/${id}/redeliver`).set('X-Api-Key', project.key)).status,
    ).toBe(409);
  });

  it('admin routes manage any project’s endpoints (notifyd compatible)', async () => {
    const res = await t.http
      .post('/v1/admin/webhooks')
      .set('X-Api-Key', ADMIN_KEY)
      .send({ project_id: project.id, url: `${base}/admin`, events: ['job.sent'] });
    expect(res.status).toBe(201);
    expect(res.body.secret).toMatch(/^whsec_/);
    expect(res.body).toMatchObject({
      success: true,
      warning: 'Store the secret now: it cannot be shown again.',
      webhook: { id: res.body.id, project_id: project.id },
    });
    const unknown = await t.http
      .post('/v1/admin/webhooks')
      .set('X-Api-Key', ADMIN_KEY)
      .send({ project_id: 'nope', url: `${base}/admin`, events: ['job.sent'] });
    expect(unknown.status).toBe(422);
    const list = await t.http
      .get('/v1/admin/webhooks')
      .query({ project_id: project.id })
      .set('X-Api-Key', 'test-readonly-key-0123456789abcd');
    expect(list.body).toMatchObject({
      count: 1,
      webhooks: [expect.objectContaining({ id: res.body.id, project_id: project.id })],
    });
    expect((await t.http.delete(`/v1/admin/webhooks/${res.body.id}`).set('X-Api-Key', ADMIN_KEY)).status).toBe(200);
  });
});
