import webpush from 'web-push';
import type { OutboundMessage } from '../src/connectors/connector.js';
import { ApnsProviderToken } from '../src/connectors/push/apns/apns-provider-token.js';
import { ApnsSender } from '../src/connectors/push/apns/apns.sender.js';
import { PushConnector } from '../src/connectors/push/push.connector.js';
import { PacingService } from '../src/pacing/pacing.service.js';
import { APNS_KEY_ID, APNS_TEAM_ID, APNS_TOPIC, ApnsFake, type ApnsScript } from './fakes/apns-fake.js';
import { FcmFake } from './fakes/fcm-fake.js';
import { createTestCertificate, type TestCertificate } from './fakes/test-certificate.js';
import { WebPushServiceFake } from './fakes/web-push-service-fake.js';
import { pushMessage, useProviderApp } from './helpers/provider-app.js';

/**
 * APNs over HTTP/2 through PUSH_PROVIDER=native, against a TLS HTTP/2 fake that verifies the
 * ES256 provider token and the topic; and one job fanned out to a subscriber's devices on all
 * three platforms at once.
 */
describe('push: APNs over HTTP/2', () => {
  let tls: TestCertificate;
  let apns: ApnsFake;
  const fcm = new FcmFake();
  let web: WebPushServiceFake;
  let seq = 0;
  const app = useProviderApp({
    fakes: async () => {
      tls = await createTestCertificate();
      apns = new ApnsFake(tls);
      web = new WebPushServiceFake(tls);
      return [apns, fcm, web];
    },
    env: () => ({
      PUSH_PROVIDER: 'native',
      APNS_KEY_ID,
      APNS_TEAM_ID,
      APNS_PRIVATE_KEY: apns.privateKeyPem.replace(/\n/g, '\\n'),
      APNS_TOPIC,
      APNS_BASE_URL: apns.url,
      FCM_SERVICE_ACCOUNT_JSON: JSON.stringify(fcm.serviceAccount),
      FCM_API_BASE: fcm.url,
      VAPID_PRIVATE_KEY: webpush.generateVAPIDKeys().privateKey,
      VAPID_SUBJECT: 'mailto:ops@acme.example',
      WEB_PUSH_ENDPOINT_HOSTS: '127.0.0.1',
      OUTBOUND_ALLOW_LOOPBACK: 'true',
      PUSH_CA_FILE: tls.caFile,
      // 3 s: short enough for the stall rows, long enough for a cold first call on a loaded CI machine.
      OUTBOUND_TIMEOUT_MS: '3000',
    }),
    loopbackOnly: true,
  });
  const { job } = app;
  beforeEach(() => void (apns.received.length = 0));

  const subscriber = async (...devices: object[]) => {
    const id = `apns-sub-${++seq}`;
    expect((await app.t.http.post('/v1/subscribers').set('X-Api-Key', app.project.key).send({ id })).status).toBe(200);
    for (const device of devices) {
      const res = await app.t.http
        .post('/v1/push-tokens')
        .set('X-Api-Key', app.project.key)
        .send({ subscriber_id: id, ...device });
      expect(res.status).toBe(200);
    }
    return id;
  };
  const iphone = (script: ApnsScript) => ({ platform: 'apns', token: apns.deviceToken(script) });
  const remaining = async (subscriberId: string) =>
    (
      await app.t.db.sql(
        `SELECT platform FROM push_tokens WHERE project_id = $1 AND subscriber_id = $2 ORDER BY platform`,
        [app.project.id, subscriberId],
      )
    ).map((r) => r.platform);
  const message = (subscriberId: string, extra: Partial<OutboundMessage> = {}): OutboundMessage =>
    pushMessage(app.project.id, subscriberId, extra);
  const sendPush = (subscriberId: string, extra: Record<string, unknown> = {}) =>
    app.send({ channels: ['push'], subscriber_id: subscriberId, subject: 'Shipped', body: 'On its way', ...extra });

  it('maps every APNs reason to an outcome, deleting only tokens APNs declared gone; one provider token serves every request', async () => {
    const connector = app.t.notifyd.app.get(PushConnector);
    type Row = [script: ApnsScript, kind: string, dead: boolean, deleted: boolean, code: string | undefined];
    const rows: Row[] = [
      ['ok', 'ok', false, false, undefined],
      ['unregistered', 'permanent', true, true, 'Unregistered'],
      ['bad-device', 'permanent', true, true, 'BadDeviceToken'],
      ['not-for-topic', 'permanent', true, true, 'DeviceTokenNotForTopic'],
      ['expired-token', 'permanent', true, true, 'ExpiredToken'],
      ['too-many', 'rate_limited', false, false, 'TooManyRequests'],
      ['too-many-token-updates', 'rate_limited', false, false, 'TooManyProviderTokenUpdates'],
      ['payload-too-large', 'permanent', false, false, 'PayloadTooLarge'],
      ['bad-topic', 'permanent', false, false, 'BadTopic'],
      ['internal', 'transient', false, false, 'InternalServerError'],
      ['unavailable', 'transient', false, false, 'ServiceUnavailable'],
      ['shutdown', 'transient', false, false, 'Shutdown'],
      ['stall', 'transient', false, false, undefined],
    ];
    const seen: unknown[] = [];
    for (const [script] of rows) {
      const id = await subscriber(iphone(script));
      const [result] = await connector.send([message(id)]);
      const deleted = (await remaining(id)).length === 0;
      seen.push(
        result.ok
          ? [script, 'ok', false, deleted, undefined]
          : [script, result.error.kind, result.error.deadRecipient, deleted, result.error.providerCode],
      );
    }
    expect(seen).toEqual(rows);
    expect(apns.received).toHaveLength(rows.length);
    expect(new Set(apns.received.map((r) => r.jwt)).size).toBe(1);
  });

  it('end to end: the worker sends what APNs expects (bearer ES256 token, topic, push type, priority, payload) and stores the apns-id', async () => {
    const id = await subscriber(iphone('ok'));
    const jobId = await sendPush(id, { url: 'https://acme.example/o/9' });
    await app.t.worker.drainOnce();
    expect(apns.received).toHaveLength(1);
    const [push] = apns.received;
    expect(push.headers).toMatchObject({
      ':method': 'POST',
      'apns-topic': APNS_TOPIC,
      'apns-push-type': 'alert',
      'apns-priority': '10',
      'content-type': 'application/json',
    });
    expect(push.headers.authorization).toBe(`bearer ${push.jwt}`);
    expect(push.claims).toMatchObject({ iss: APNS_TEAM_ID });
    expect(push.payload).toEqual({
      aps: { alert: { title: 'Shipped', body: 'On its way' }, sound: 'default' },
      url: 'https://acme.example/o/9',
      data: { notifyd_job_id: jobId },
    });
    const row = await job(jobId);
    expect(row).toMatchObject({ status: 'sent', attempts: 1, provider: 'native' });
    expect(row.provider_message_id).toMatch(/^apns:[0-9A-F-]{36}$/);
  });

  it("end to end: the request's push options reach APNs (sound none, badge, thread, category, mutable content, collapse id, ttl); bad options are a 422", async () => {
    const id = await subscriber(iphone('ok'));
    const jobId = await sendPush(id, {
      push: {
        badge: 2,
        sound: 'none',
        thread_id: 'order-7',
        category: 'ORDER',
        mutable_content: true,
        collapse_id: 'order-7',
        ttl_secs: 120,
        data: { order: 7 },
      },
    });
    await app.t.worker.drainOnce();
    const [push] = apns.received;
    expect(push.payload).toEqual({
      aps: {
        alert: { title: 'Shipped', body: 'On its way' },
        'mutable-content': 1,
        badge: 2,
        'thread-id': 'order-7',
        category: 'ORDER',
      },
      data: { order: 7, notifyd_job_id: jobId },
    });
    expect(push.headers).toMatchObject({ 'apns-collapse-id': 'order-7', 'apns-push-type': 'alert' });
    expect(push.headers['apns-expiration']).toMatch(/^\d{10}$/);
    for (const push of [
      { ttl_secs: -1 },
      { badge: 'three' },
      { collapse_id: 'x'.repeat(65) },
      { data: 'nope' },
      { colour: 'red' },
    ]) {
      const res = await app.t.http
        .post('/v1/send')
        .set('X-Api-Key', app.project.key)
        .send({ channels: ['push'], subscriber_id: id, body: 'x', push });
      expect([JSON.stringify(push), res.status]).toEqual([JSON.stringify(push), 422]);
      expect(res.body.message).toMatch(/push\./);
    }
  });

  it('a background push carries only content-available, at priority 5, with expiration and collapse id', async () => {
    const id = await subscriber(iphone('ok'));
    const before = Math.floor(Date.now() / 1000);
    const [result] = await app.t.notifyd.app
      .get(PushConnector)
      .send([message(id, { payload: { push: { background: true, badge: 3, ttl_secs: 60, collapse_id: 'order-1' } } })]);
    expect(result.ok).toBe(true);
    const [push] = apns.received;
    expect(push.payload.aps).toEqual({ 'content-available': 1, badge: 3 });
    expect(push.headers).toMatchObject({
      'apns-push-type': 'background',
      'apns-priority': '5',
      'apns-collapse-id': 'order-1',
    });
    expect(Number(push.headers['apns-expiration'])).toBeGreaterThanOrEqual(before + 60);
  });

  it('ExpiredProviderToken: renews the provider token once and delivers', async () => {
    const sender = app.t.notifyd.app.get(ApnsSender);
    const signed = sender.providerToken!.signed;
    apns.expireSeenTokens();
    const id = await subscriber(iphone('ok'));
    const [result] = await app.t.notifyd.app.get(PushConnector).send([message(id)]);
    expect(result.ok).toBe(true);
    expect(apns.expiredAnswers).toBe(1);
    expect(sender.providerToken!.signed).toBe(signed + 1);
  });

  it('reuses the provider token until APNS_TOKEN_REFRESH_SECS (50 min by default, never under 20), then signs a new one', async () => {
    let now = Date.now();
    const tokens = new ApnsProviderToken(app.t.notifyd.config.pushProviders.apns!, () => now);
    const first = await tokens.get();
    now += 20 * 60_000;
    expect(await tokens.get()).toBe(first);
    now += 29 * 60_000;
    expect(await tokens.get()).toBe(first);
    now += 60_000;
    const second = await tokens.get();
    expect(second).not.toBe(first);
    expect(tokens.signed).toBe(2);
    // A renewal after an expiry answer signs once, however many requests saw the stale token.
    const [a, b] = await Promise.all([tokens.renew(second), tokens.renew(second)]);
    expect(a).toBe(b);
    expect(tokens.signed).toBe(3);
  });

  it('end to end: Unregistered fails the job and deletes the token; TooManyRequests pauses the push lane without using an attempt', async () => {
    const gone = await subscriber(iphone('unregistered'));
    const goneJob = await sendPush(gone);
    await app.t.worker.drainOnce();
    expect(await job(goneJob)).toMatchObject({ status: 'failed', attempts: 1 });
    expect((await job(goneJob)).error).toBe(
      'no device accepted the push: apns: APNs HTTP 410 Unregistered (token deleted)',
    );
    expect(await remaining(gone)).toEqual([]);

    const busy = await subscriber(iphone('too-many'));
    const busyJob = await sendPush(busy);
    await app.t.worker.drainOnce();
    expect(await job(busyJob)).toMatchObject({ status: 'pending', attempts: 0 });
    const [lane] = await app.t.db.sql(
      `SELECT pause_kind, paused_until > now() AS paused FROM pacing_lanes WHERE lane_key = 'push:native'`,
    );
    expect(lane).toEqual({ pause_kind: 'rate_limited', paused: true });
    await app.t.notifyd.app.get(PacingService).resume({ channel: 'push', provider: 'native' });
  });

  it('one job fans out to the subscriber’s browser, Android and iPhones; dead ones are deleted in the same pass', async () => {
    web.received.length = 0;
    fcm.requests.length = 0;
    const id = await subscriber(
      web.subscribe('ok'),
      { platform: 'fcm', token: 'ok:APA91bFanOut' },
      iphone('ok'),
      iphone('unregistered'),
    );
    const jobId = await sendPush(id);
    await app.t.worker.drainOnce();
    const row = await job(jobId);
    expect(row).toMatchObject({ status: 'sent', provider: 'native' });
    expect(
      (row.provider_message_id ?? '')
        .split(' ')
        .map((p) => p.split(':')[0])
        .sort(),
    ).toEqual(['apns', 'fcm', 'web']);
    expect([web.received.length, fcm.sends.length, apns.received.length]).toEqual([1, 1, 2]);
    expect(await remaining(id)).toEqual(['apns', 'fcm', 'web']);
  });

  it('never attempted a connection to a non-loopback address', () => {
    expect(app.connectionAttempts.filter((host) => !/^(127\.|::1|::ffff:127\.|localhost$)/.test(host))).toEqual([]);
  });
});
