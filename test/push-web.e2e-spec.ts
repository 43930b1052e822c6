import webpush from 'web-push';
import type { OutboundMessage } from '../src/connectors/connector.js';
import { PushConnector } from '../src/connectors/push/push.connector.js';
import { PacingService } from '../src/pacing/pacing.service.js';
import { createTestCertificate, type TestCertificate } from './fakes/test-certificate.js';
import { WebPushServiceFake, type WebPushScript } from './fakes/web-push-service-fake.js';
import { pushMessage, useProviderApp } from './helpers/provider-app.js';
import { createTestDatabase } from './helpers/test-database.js';
import { startTestApp } from './helpers/test-app.js';

/**
 * Web Push with VAPID through PUSH_PROVIDER=native, against a TLS push service on loopback that
 * verifies the VAPID JWT and decrypts the payload with the browser's keys. Loopback is allowed
 * for the fake (OUTBOUND_ALLOW_LOOPBACK, WEB_PUSH_ENDPOINT_HOSTS=127.0.0.1); anything else is
 * refused before connecting.
 */
describe('push: Web Push (VAPID)', () => {
  let tls: TestCertificate;
  let fake: WebPushServiceFake;
  let seq = 0;
  const vapid = webpush.generateVAPIDKeys();
  const app = useProviderApp({
    fakes: async () => {
      tls = await createTestCertificate();
      fake = new WebPushServiceFake(tls);
      return [fake];
    },
    env: () => ({
      PUSH_PROVIDER: 'native',
      VAPID_PRIVATE_KEY: vapid.privateKey,
      VAPID_SUBJECT: 'mailto:ops@acme.example',
      WEB_PUSH_ENDPOINT_HOSTS: '127.0.0.1',
      OUTBOUND_ALLOW_LOOPBACK: 'true',
      PUSH_CA_FILE: tls.caFile,
    }),
    loopbackOnly: true,
  });
  const { job } = app;
  beforeEach(() => void (fake.received.length = 0));

  /** A subscriber with one browser subscription per script; returns its id and device ids. */
  const subscriber = async (...scripts: WebPushScript[]) => {
    const id = `sub-${++seq}`;
    expect((await app.t.http.post('/v1/subscribers').set('X-Api-Key', app.project.key).send({ id })).status).toBe(200);
    const devices: string[] = [];
    for (const script of scripts) {
      const res = await app.t.http
        .post('/v1/push-tokens')
        .set('X-Api-Key', app.project.key)
        .send({ subscriber_id: id, ...fake.subscribe(script) });
      expect(res.status).toBe(200);
      devices.push(res.body.id);
    }
    return { id, devices };
  };
  const remaining = async (subscriberId: string) =>
    (
      await app.t.db.sql(`SELECT id FROM push_tokens WHERE project_id = $1 AND subscriber_id = $2 ORDER BY id`, [
        app.project.id,
        subscriberId,
      ])
    ).map((r) => r.id);
  const message = (subscriberId: string, extra: Partial<OutboundMessage> = {}): OutboundMessage =>
    pushMessage(app.project.id, subscriberId, { subject: 'Order shipped', body: 'It is on its way', ...extra });
  const sendPush = (subscriberId: string, extra: Record<string, unknown> = {}) =>
    app.send({
      channels: ['push'],
      subscriber_id: subscriberId,
      subject: 'Hello {{name}}',
      body: 'Body',
      vars: { name: 'Jane' },
      ...extra,
    });

  it('maps every push service answer to an outcome, deleting the subscription only when it is gone', async () => {
    const connector = app.t.notifyd.app.get(PushConnector);
    type Row = [script: WebPushScript, kind: string, dead: boolean, deleted: boolean, retryAfterMs?: number];
    const rows: Row[] = [
      ['ok', 'ok', false, false],
      ['gone', 'permanent', true, true],
      ['notfound', 'permanent', true, true],
      ['ratelimited', 'rate_limited', false, false, 7000],
      ['error', 'transient', false, false],
      ['toolarge', 'permanent', false, false],
      ['badrequest', 'permanent', false, false],
      ['forbidden', 'permanent', false, false],
    ];
    const seen: unknown[] = [];
    for (const [script] of rows) {
      const { id, devices } = await subscriber(script);
      const [result] = await connector.send([message(id)]);
      const left = await remaining(id);
      seen.push([
        script,
        result.ok ? 'ok' : result.error.kind,
        result.ok ? false : result.error.deadRecipient,
        left.length === 0 && devices.length === 1,
        result.ok ? undefined : result.error.retryAfterMs,
      ]);
    }
    expect(seen).toEqual(rows);
    expect(fake.received.map((r) => r.script)).toEqual(rows.map(([script]) => script));
  });

  it('end to end: the worker encrypts for the browser keys and signs with VAPID; the job records the push message id', async () => {
    const { id } = await subscriber('ok');
    const jobId = await sendPush(id, { url: 'https://acme.example/orders/1', priority: 'critical' });
    await app.t.worker.drainOnce();
    expect(fake.received).toHaveLength(1);
    const [push] = fake.received;
    expect(push.payload).toEqual({
      title: 'Hello Jane',
      body: 'Body',
      url: 'https://acme.example/orders/1',
      data: { notifyd_job_id: jobId },
    });
    expect(push.vapidKey).toBe(vapid.publicKey);
    expect(push.claims).toMatchObject({ aud: fake.origin, sub: 'mailto:ops@acme.example' });
    expect(push.headers).toMatchObject({ 'content-encoding': 'aes128gcm', ttl: '2419200', urgency: 'high' });
    const row = await job(jobId);
    expect(row).toMatchObject({ status: 'sent', attempts: 1, provider: 'native' });
    expect(row.provider_message_id).toMatch(new RegExp(`^web:${fake.origin}/message/[0-9a-f-]{36}$`));
  });

  it('fans out to every device of the subscriber: sent when one accepts, the gone one deleted in the same pass', async () => {
    const { id, devices } = await subscriber('ok', 'gone', 'error');
    const jobId = await sendPush(id);
    await app.t.worker.drainOnce();
    expect(fake.received.map((r) => r.script).sort()).toEqual(['error', 'gone', 'ok']);
    expect(await job(jobId)).toMatchObject({ status: 'sent', provider: 'native' });
    expect(await remaining(id)).toEqual([devices[0], devices[2]].sort());
  });

  it('end to end: gone devices fail the job (and are deleted), a 5xx is retried, a 429 pauses the push lane without using an attempt', async () => {
    const gone = await subscriber('gone', 'notfound');
    const goneJob = await sendPush(gone.id);
    await app.t.worker.drainOnce();
    expect(await job(goneJob)).toMatchObject({ status: 'failed', attempts: 1, provider: 'native' });
    // Devices are tried most recently registered first.
    expect((await job(goneJob)).error).toBe(
      'no device accepted the push: web: web push service HTTP 404 (subscription gone); web: web push service HTTP 410 (subscription gone)',
    );
    expect(await remaining(gone.id)).toEqual([]);

    const flaky = await subscriber('error');
    const flakyJob = await sendPush(flaky.id);
    await app.t.worker.drainOnce();
    expect(await job(flakyJob)).toMatchObject({ status: 'retry', attempts: 1 });

    const limited = await subscriber('ratelimited');
    const limitedJob = await sendPush(limited.id);
    await app.t.worker.drainOnce();
    expect(await job(limitedJob)).toMatchObject({ status: 'pending', attempts: 0 });
    const [lane] = await app.t.db.sql(
      // The pause as written (Retry-After: 7), not what is left of it after a drain on a loaded machine.
      `SELECT pause_kind, paused_until - paused_at >= interval '7 seconds' AS paused FROM pacing_lanes WHERE lane_key = 'push:native'`,
    );
    expect(lane).toEqual({ pause_kind: 'rate_limited', paused: true });
    await app.t.notifyd.app.get(PacingService).resume({ channel: 'push', provider: 'native' });
  });

  it('a subscriber without devices closes the job as skipped', async () => {
    const { id } = await subscriber();
    const jobId = await sendPush(id);
    await app.t.worker.drainOnce();
    expect(await job(jobId)).toMatchObject({
      status: 'sent',
      provider: 'skipped',
      error: 'subscriber has no registered push device',
    });
  });

  it('refuses, before connecting, an endpoint that reached the table without registration checks', async () => {
    const { id } = await subscriber();
    const keys = fake.subscribe('ok').keys;
    const before = fake.connections;
    for (const endpoint of [
      'https://10.0.0.7/push/x',
      'https://169.254.169.254/latest',
      'https://push.elsewhere.example/x',
      `http://127.0.0.1:1/push`,
    ]) {
      await app.t.db.sql(
        `INSERT INTO push_tokens (project_id, subscriber_id, token, platform, endpoint, p256dh, auth) VALUES ($1, $2, $3, 'web', $3, $4, $5)`,
        [app.project.id, id, endpoint, keys.p256dh, keys.auth],
      );
    }
    const [result] = await app.t.notifyd.app.get(PushConnector).send([message(id)]);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error.message.match(/refused before connecting/g)).toHaveLength(4);
    expect(fake.connections).toBe(before);
    // Refused, not gone: the rows stay for an operator to see.
    expect(await remaining(id)).toHaveLength(4);
  });

  it('never attempted a connection to a non-loopback address', () => {
    expect(app.connectionAttempts.filter((host) => !/^(127\.|::1|::ffff:127\.|localhost$)/.test(host))).toEqual([]);
  });
});

describe('push: start-up', () => {
  it('refuses PUSH_PROVIDER=native without any push platform, naming the variables to set', async () => {
    const db = await createTestDatabase();
    try {
      await expect(startTestApp({ database: db, env: { PUSH_PROVIDER: 'native' } })).rejects.toThrow(
        /PUSH_PROVIDER=native needs at least one push platform: set VAPID_PRIVATE_KEY and VAPID_SUBJECT/,
      );
    } finally {
      await db.drop();
    }
  });
});
