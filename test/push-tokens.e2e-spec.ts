import { createECDH, randomBytes } from 'node:crypto';
import type { LookupAddress } from 'node:dns';
import webpush from 'web-push';
import { PushTokensService } from '../src/push-tokens/push-tokens.service.js';
import { WebhookReceiver } from './fakes/webhook-receiver.js';
import { installLoopbackOnlyGuard } from './helpers/loopback-only.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';

/** A browser PushSubscription.toJSON(), with real key material. */
function browserSubscription(endpoint: string) {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return {
    endpoint,
    expirationTime: null,
    keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') },
  };
}

const APNS_TOKEN = 'AB'.repeat(32);

/**
 * The push token API of notifyd §2.7 with the production SSRF policy (no loopback): register
 * (browser PushSubscription, FCM, APNs), refresh, list, delete, validation with messages that
 * name the field, subscriber scoping, cascade on subscriber deletion, and endpoints refused
 * before any connection. The VAPID key route is public.
 */
describe('push tokens API', () => {
  let t: TestApp;
  let project: { id: string; key: string };
  let other: { id: string; key: string };
  let canary: WebhookReceiver;
  let guard: ReturnType<typeof installLoopbackOnlyGuard>;
  let answers: string[][] = [['93.184.216.34']];
  const vapid = webpush.generateVAPIDKeys();

  beforeAll(async () => {
    guard = installLoopbackOnlyGuard();
    canary = new WebhookReceiver();
    await canary.start();
    t = await startTestApp({
      env: {
        VAPID_PRIVATE_KEY: vapid.privateKey,
        VAPID_SUBJECT: 'mailto:ops@example.com',
        OUTBOUND_ALLOW_LOOPBACK: 'false',
      },
    });
    t.notifyd.app.get(PushTokensService).useResolver(async (): Promise<LookupAddress[]> => {
      const next = answers.length > 1 ? answers.shift()! : answers[0];
      return next.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    });
    project = await t.createProject();
    other = await t.createProject();
    for (const [p, id] of [
      [project, 'jane'],
      [project, 'joe'],
      [other, 'jane'],
    ] as const) {
      const res = await t.http.post('/v1/subscribers').set('X-Api-Key', p.key).send({ id });
      expect(res.status).toBe(200);
    }
  });
  afterAll(async () => {
    await t.close();
    await canary.stop();
    guard.restore();
  });

  const register = (body: object, key = project.key) => t.http.post('/v1/push-tokens').set('X-Api-Key', key).send(body);
  const list = (subscriber: string, key = project.key) =>
    t.http.get(`/v1/push-tokens/subscriber/${encodeURIComponent(subscriber)}`).set('X-Api-Key', key);

  it('registers a browser PushSubscription as sent, and the same subscription again refreshes it', async () => {
    const sub = browserSubscription('https://fcm.googleapis.com/fcm/send/abc:APA91b-1');
    const first = await register({ subscriber_id: 'jane', ...sub, device_name: 'Laptop', user_agent: 'Firefox/135' });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      success: true,
      created: true,
      token: {
        platform: 'web',
        token: sub.endpoint,
        endpoint: sub.endpoint,
        device_name: 'Laptop',
        expiration_time: null,
      },
    });
    const [stored] = await t.db.sql(`SELECT p256dh, auth, platform FROM push_tokens WHERE id = $1`, [first.body.id]);
    expect(stored).toEqual({ p256dh: sub.keys.p256dh, auth: sub.keys.auth, platform: 'web' });

    const again = await register({
      subscriber_id: 'jane',
      ...sub,
      expirationTime: 1_900_000_000_000,
      device_name: 'Laptop (renamed)',
    });
    expect(again.body).toMatchObject({
      created: false,
      id: first.body.id,
      token: { device_name: 'Laptop (renamed)', expiration_time: 1_900_000_000_000 },
    });
    expect(new Date(again.body.token.last_used_at).getTime()).toBeGreaterThanOrEqual(
      new Date(first.body.token.last_used_at).getTime(),
    );
    // The keys are stored for encryption, never echoed back.
    expect(JSON.stringify(again.body)).not.toContain(sub.keys.auth);
  });

  it('defaults the platform: fcm for a bare token, web when an endpoint is given; APNs tokens are stored in lower case', async () => {
    const fcm = await register({
      subscriber_id: 'jane',
      token: 'fcm-token-1:APA91bHun4MxP5egoKMwt2KZFBaFUH',
      device_name: 'Pixel',
    });
    expect(fcm.body.token).toMatchObject({
      platform: 'fcm',
      token: 'fcm-token-1:APA91bHun4MxP5egoKMwt2KZFBaFUH',
      endpoint: null,
    });
    const apns = await register({ subscriber_id: 'jane', token: APNS_TOKEN, platform: 'apns' });
    expect(apns.body.token).toMatchObject({ platform: 'apns', token: APNS_TOKEN.toLowerCase() });
    const res = await list('jane');
    expect(res.status).toBe(200);
    // Most recently used first.
    expect(res.body.tokens.map((x: { platform: string }) => x.platform)).toEqual(['apns', 'fcm', 'web']);
    expect(Object.keys(res.body.tokens[0]).sort()).toEqual([
      'created_at',
      'device_name',
      'endpoint',
      'expiration_time',
      'id',
      'last_used_at',
      'platform',
      'token',
      'user_agent',
    ]);
  });

  it.each([
    [{ subscriber_id: 'jane' }, /needs token/],
    [{ subscriber_id: 'jane', platform: 'web' }, /needs endpoint/],
    [{ subscriber_id: 'jane', endpoint: 'https://fcm.googleapis.com/fcm/send/x' }, /needs keys\.p256dh and keys\.auth/],
    [
      {
        subscriber_id: 'jane',
        endpoint: 'https://fcm.googleapis.com/fcm/send/x',
        keys: { p256dh: 'AAAA', auth: randomBytes(16).toString('base64url') },
      },
      /keys\.p256dh must be the 65-byte/,
    ],
    [
      {
        subscriber_id: 'jane',
        endpoint: 'https://fcm.googleapis.com/fcm/send/x',
        keys: { p256dh: browserSubscription('x').keys.p256dh, auth: 'AAAA' },
      },
      /keys\.auth must be the 16-byte/,
    ],
    [
      {
        subscriber_id: 'jane',
        endpoint: 'https://fcm.googleapis.com/fcm/send/x',
        keys: { p256dh: 'not base64!', auth: 'x' },
      },
      /keys\.p256dh must be URL-safe base64/,
    ],
    [{ subscriber_id: 'jane', token: 'abc', platform: 'apns' }, /APNs token must be the device token in hex/],
    [{ subscriber_id: 'jane', token: 'has a space', platform: 'fcm' }, /FCM token must be the registration token/],
    [
      { subscriber_id: 'jane', token: 'abc', platform: 'fcm', keys: { p256dh: 'x', auth: 'y' } },
      /keys apply to web push only/,
    ],
    [{ subscriber_id: 'jane', token: 'abc', platform: 'huawei' }, /platform must be one of web, fcm, apns/],
    [{ subscriber_id: '', token: 'abc' }, /subscriber_id must be/],
    [
      {
        subscriber_id: 'jane',
        ...browserSubscription('https://fcm.googleapis.com/fcm/send/y'),
        token: 'https://other.example/',
      },
      /token is the endpoint/,
    ],
    [
      {
        subscriber_id: 'jane',
        ...browserSubscription('https://fcm.googleapis.com/fcm/send/y'),
        expirationTime: 1,
        expiration_time: 2,
      },
      /disagree/,
    ],
  ])('refuses %j with a 422 that names the fix', async (body, message) => {
    const res = await register(body);
    expect(res.status).toBe(422);
    expect(res.body.message).toMatch(message);
  });

  it('an unknown subscriber is a 404 (another project’s subscriber of the same id does not count)', async () => {
    const res = await register({ subscriber_id: 'nobody', token: 'fcm-x' });
    expect(res.status).toBe(404);
    expect(res.body.message).toMatch(/Subscriber 'nobody' was not found/);
  });

  it('refuses endpoints that are not a public push service before any connection', async () => {
    const port = canary.port;
    const targets = [
      'http://169.254.169.254/latest/meta-data/',
      `https://127.0.0.1:${port}/push`,
      `https://[::1]:${port}/push`,
      `https://localhost:${port}/push`,
      'https://10.0.0.5/push',
      'http://fcm.googleapis.com/fcm/send/x',
      'https://evil.example.com/fcm/send/x',
      'https://fcm.googleapis.com.evil.example/x',
      'ftp://fcm.googleapis.com/x',
      'https://user:pw@fcm.googleapis.com/x',
    ];
    for (const endpoint of targets) {
      const res = await register({ subscriber_id: 'joe', ...browserSubscription(endpoint) });
      expect([endpoint, res.status, res.body.error]).toEqual([endpoint, 422, 'unsafe_url']);
    }
    answers = [['10.9.8.7']];
    const named = await register({
      subscriber_id: 'joe',
      ...browserSubscription('https://wns2-par02p.notify.windows.com/w/?token=x'),
    });
    expect(named.status).toBe(422);
    expect(named.body.message).toMatch(
      /wns2-par02p\.notify\.windows\.com resolves to a non-public address: 10\.9\.8\.7 is a private address/,
    );
    answers = [['93.184.216.34']];
    expect(canary.connections).toBe(0);
    expect(await t.db.sql(`SELECT token FROM push_tokens WHERE subscriber_id = 'joe'`)).toEqual([]);
    // A matching sub-domain of an allowed push service is accepted.
    const ok = await register({
      subscriber_id: 'joe',
      ...browserSubscription('https://wns2-par02p.notify.windows.com/w/?token=x'),
    });
    expect(ok.status).toBe(200);
  });

  it('is scoped by project: another project neither lists nor deletes the devices', async () => {
    const mine = await list('jane');
    expect((await list('jane', other.key)).body.tokens).toEqual([]);
    const id = mine.body.tokens[0].id;
    const foreign = await t.http.delete(`/v1/push-tokens/${id}`).set('X-Api-Key', other.key);
    expect(foreign.body).toEqual({ success: true });
    expect((await list('jane')).body.tokens).toHaveLength(mine.body.tokens.length);
  });

  it('deletes a device, and answers success for one already gone or a malformed id', async () => {
    const before = (await list('jane')).body.tokens;
    const res = await t.http.delete(`/v1/push-tokens/${before[0].id}`).set('X-Api-Key', project.key);
    expect(res.body).toEqual({ success: true });
    expect((await list('jane')).body.tokens).toHaveLength(before.length - 1);
    expect((await t.http.delete(`/v1/push-tokens/${before[0].id}`).set('X-Api-Key', project.key)).body).toEqual({
      success: true,
    });
    expect((await t.http.delete('/v1/push-tokens/not-a-uuid').set('X-Api-Key', project.key)).body).toEqual({
      success: true,
    });
  });

  it('deleting a subscriber deletes their devices', async () => {
    expect((await list('jane')).body.tokens.length).toBeGreaterThan(0);
    expect((await t.http.delete('/v1/subscribers/jane').set('X-Api-Key', project.key)).status).toBe(200);
    expect(
      await t.db.sql(`SELECT id FROM push_tokens WHERE project_id = $1 AND subscriber_id = 'jane'`, [project.id]),
    ).toEqual([]);
  });

  it('needs a project key', async () => {
    expect((await t.http.post('/v1/push-tokens').send({ subscriber_id: 'joe', token: 'x' })).status).toBe(401);
    expect((await t.http.get('/v1/push-tokens/subscriber/joe')).status).toBe(401);
  });

  it('serves the VAPID public key without a key (derived from the private key), 404 for an unknown project', async () => {
    const res = await t.http.get('/v1/push/vapid-public-key');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ public_key: vapid.publicKey });
    expect((await t.http.get(`/v1/push/vapid-public-key?project=${project.id}`)).body).toEqual({
      public_key: vapid.publicKey,
    });
    expect((await t.http.get('/v1/push/vapid-public-key?project=nope')).status).toBe(404);
  });

  it('never attempted a connection to a non-loopback address', () => {
    expect(guard.attempts.filter((host) => !/^(127\.|::1|::ffff:127\.|localhost$|[a-z.-]+\.test$)/.test(host))).toEqual(
      [],
    );
  });
});

describe('push tokens API without web push configured', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('the VAPID key route answers 503 with the variables to set', async () => {
    const res = await t.http.get('/v1/push/vapid-public-key');
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ error: 'push_not_configured' });
    expect(res.body.message).toMatch(/VAPID_PRIVATE_KEY/);
  });
});
