import { generateKeyPairSync } from 'node:crypto';
import { fetch } from 'undici';
import type { OutboundMessage } from '../src/connectors/connector.js';
import { FcmAccessTokens } from '../src/connectors/push/fcm/fcm-access-token.js';
import { PushConnector } from '../src/connectors/push/push.connector.js';
import { ProviderError } from '../src/connectors/provider-error.js';
import { PacingService } from '../src/pacing/pacing.service.js';
import { FCM_CLIENT_EMAIL, FCM_PROJECT, FcmFake, type FcmScript } from './fakes/fcm-fake.js';
import { pushMessage, useProviderApp } from './helpers/provider-app.js';

/**
 * FCM HTTP v1 through PUSH_PROVIDER=native, against a local FCM with its OAuth2 token
 * endpoint: the service-account assertion is verified, the access token cached and renewed,
 * every documented error mapped, dead tokens deleted.
 */
describe('push: FCM HTTP v1', () => {
  const fake = new FcmFake();
  const app = useProviderApp({
    fakes: [fake],
    env: () => ({
      PUSH_PROVIDER: 'native',
      FCM_SERVICE_ACCOUNT_JSON: JSON.stringify(fake.serviceAccount),
      FCM_API_BASE: fake.url,
      // 3 s: short enough for the stall rows, long enough for a cold first call on a loaded CI machine.
      OUTBOUND_TIMEOUT_MS: '3000',
    }),
  });
  const { job } = app;
  let seq = 0;

  const subscriber = async (...tokens: { token: string; platform?: string }[]) => {
    const id = `fcm-sub-${++seq}`;
    expect((await app.t.http.post('/v1/subscribers').set('X-Api-Key', app.project.key).send({ id })).status).toBe(200);
    for (const device of tokens) {
      const res = await app.t.http
        .post('/v1/push-tokens')
        .set('X-Api-Key', app.project.key)
        .send({ subscriber_id: id, platform: 'fcm', ...device });
      expect(res.status).toBe(200);
    }
    return id;
  };
  const device = (script: FcmScript) => ({ token: `${script}:APA91b${++seq}xYz` });
  const remaining = async (subscriberId: string) =>
    (await app.t.db.sql(
      `SELECT platform, token FROM push_tokens WHERE project_id = $1 AND subscriber_id = $2 ORDER BY token`,
      [app.project.id, subscriberId],
    )) as { platform: string; token: string }[];
  const message = (subscriberId: string, extra: Partial<OutboundMessage> = {}): OutboundMessage =>
    pushMessage(app.project.id, subscriberId, extra);

  it('maps every documented FCM error to an outcome, deleting only tokens FCM declared gone; one access token serves them all', async () => {
    const connector = app.t.notifyd.app.get(PushConnector);
    type Row = [
      script: FcmScript,
      kind: string,
      dead: boolean,
      deleted: boolean,
      code: string | undefined,
      retryAfterMs?: number,
    ];
    const rows: Row[] = [
      ['ok', 'ok', false, false, undefined],
      ['unregistered', 'permanent', true, true, 'UNREGISTERED'],
      ['sender-mismatch', 'permanent', true, true, 'SENDER_ID_MISMATCH'],
      ['quota', 'rate_limited', false, false, 'QUOTA_EXCEEDED', 90_000],
      ['invalid', 'permanent', false, false, 'INVALID_ARGUMENT'],
      ['unavailable', 'transient', false, false, 'UNAVAILABLE', 30_000],
      ['internal', 'transient', false, false, 'INTERNAL'],
      ['third-party', 'permanent', false, false, 'THIRD_PARTY_AUTH_ERROR'],
      ['permission', 'permanent', false, false, 'PERMISSION_DENIED'],
      ['stall', 'transient', false, false, undefined],
    ];
    const seen: unknown[] = [];
    for (const [script] of rows) {
      const id = await subscriber(device(script));
      const [result] = await connector.send([message(id)]);
      const deleted = (await remaining(id)).length === 0;
      seen.push(
        result.ok
          ? [script, 'ok', false, deleted, undefined]
          : [
              script,
              result.error.kind,
              result.error.deadRecipient,
              deleted,
              result.error.providerCode,
              result.error.retryAfterMs,
            ].slice(0, result.error.retryAfterMs === undefined ? 5 : 6),
      );
    }
    expect(seen).toEqual(rows);
    expect(fake.sends).toHaveLength(rows.length);
    expect(fake.tokenRequests).toBe(1);
  });

  it('end to end: the worker sends exactly the v1 message FCM expects, with the cached bearer token, and stores the message name', async () => {
    const token = `ok:${'x'.repeat(20)}`;
    const id = await subscriber({ token });
    const res = await app.t.http
      .post('/v1/send')
      .set('X-Api-Key', app.project.key)
      .send({
        channels: ['push'],
        subscriber_id: id,
        subject: 'Hi {{n}}',
        body: 'Body',
        vars: { n: 'Jo' },
        url: 'https://acme.example/o/1',
        priority: 'high',
      });
    const jobId = res.body.job_ids[0];
    fake.requests.length = 0;
    await app.t.worker.drainOnce();
    expect(fake.requests).toHaveLength(1);
    const [req] = fake.requests;
    expect([req.method, req.path]).toEqual(['POST', `/v1/projects/${FCM_PROJECT}/messages:send`]);
    expect(req.headers.authorization).toMatch(/^Bearer ya29\./);
    expect(req.headers['content-type']).toBe('application/json');
    expect(JSON.parse(req.raw)).toEqual({
      message: {
        token,
        notification: { title: 'Hi Jo', body: 'Body' },
        data: { notifyd_job_id: jobId, url: 'https://acme.example/o/1' },
        android: { priority: 'high' },
        webpush: { fcm_options: { link: 'https://acme.example/o/1' } },
      },
    });
    const row = await job(jobId);
    expect(row).toMatchObject({ status: 'sent', attempts: 1, provider: 'native' });
    expect(row.provider_message_id).toMatch(new RegExp(`^fcm:projects/${FCM_PROJECT}/messages/[0-9a-f-]{36}$`));
    expect(fake.tokenRequests).toBe(1);
  });

  it('renews a revoked access token once on 401 UNAUTHENTICATED and delivers', async () => {
    const id = await subscriber(device('ok'));
    fake.revokeAll();
    const before = fake.tokenRequests;
    const [result] = await app.t.notifyd.app.get(PushConnector).send([message(id)]);
    expect(result.ok).toBe(true);
    expect(fake.tokenRequests).toBe(before + 1);
  });

  it('end to end: UNREGISTERED fails the job and deletes the token; QUOTA_EXCEEDED pauses the push lane for Retry-After without using an attempt', async () => {
    const gone = await subscriber(device('unregistered'));
    const goneJob = (
      await app.t.http
        .post('/v1/send')
        .set('X-Api-Key', app.project.key)
        .send({ channels: ['push'], subscriber_id: gone, body: 'x' })
    ).body.job_ids[0];
    await app.t.worker.drainOnce();
    expect(await job(goneJob)).toMatchObject({ status: 'failed', attempts: 1 });
    expect((await job(goneJob)).error).toMatch(
      /^no device accepted the push: fcm: FCM HTTP 404 UNREGISTERED: Requested entity was not found\. \(token deleted\)$/,
    );
    expect(await remaining(gone)).toEqual([]);

    const limited = await subscriber(device('quota'));
    const limitedJob = (
      await app.t.http
        .post('/v1/send')
        .set('X-Api-Key', app.project.key)
        .send({ channels: ['push'], subscriber_id: limited, body: 'x' })
    ).body.job_ids[0];
    await app.t.worker.drainOnce();
    expect(await job(limitedJob)).toMatchObject({ status: 'pending', attempts: 0 });
    const [lane] = await app.t.db.sql(
      `SELECT pause_kind, paused_until > now() + interval '80 seconds' AS paused FROM pacing_lanes WHERE lane_key = 'push:native'`,
    );
    expect(lane).toEqual({ pause_kind: 'rate_limited', paused: true });
    await app.t.notifyd.app.get(PacingService).resume({ channel: 'push', provider: 'native' });
  });

  it('fans out across platforms: the FCM device accepts, the APNs device of an instance without APNs is refused and kept', async () => {
    const id = await subscriber(device('ok'), { token: 'ab'.repeat(32), platform: 'apns' });
    const [result] = await app.t.notifyd.app.get(PushConnector).send([message(id)]);
    expect(result).toMatchObject({ ok: true });
    expect(result.ok && result.providerMessageId).toMatch(/^fcm:projects\//);
    expect((await remaining(id)).map((r) => r.platform).sort()).toEqual(['apns', 'fcm']);
    const [alone] = await app.t.notifyd.app
      .get(PushConnector)
      .send([message(await subscriber({ token: 'cd'.repeat(32), platform: 'apns' }))]);
    expect(!alone.ok && [alone.error.kind, alone.error.message]).toEqual([
      'permanent',
      expect.stringMatching(/^no device accepted the push: apns: apns push is not configured on this instance \(set /),
    ]);
  });

  it('caches the access token until five minutes before it expires, and shares one exchange between concurrent callers', async () => {
    // The clock starts in the past: assertions carry it as iat, and the token endpoint refuses a future iat.
    let now = Date.now() - 58 * 60_000;
    const config = app.t.notifyd.config.pushProviders.fcm!;
    const tokens = new FcmAccessTokens(
      config,
      (url, init) => fetch(url, init),
      2_000,
      () => now,
    );
    const before = fake.tokenRequests;
    const [a, b] = await Promise.all([tokens.get(), tokens.get()]);
    expect(a).toBe(b);
    now += 54 * 60_000;
    expect(await tokens.get()).toBe(a);
    expect(fake.tokenRequests).toBe(before + 1);
    now += 2 * 60_000;
    expect(await tokens.get()).not.toBe(a);
    expect(fake.tokenRequests).toBe(before + 2);
  });

  it('a token endpoint that refuses the service account (invalid_grant) is a permanent error that names the setting', async () => {
    const stranger = generateKeyPairSync('rsa', { modulusLength: 2048 })
      .privateKey.export({ format: 'pem', type: 'pkcs8' })
      .toString();
    const config = { ...app.t.notifyd.config.pushProviders.fcm!, privateKey: stranger, clientEmail: FCM_CLIENT_EMAIL };
    const tokens = new FcmAccessTokens(config, (url, init) => fetch(url, init), 2_000);
    const error = await tokens.get().catch((err: unknown) => err);
    expect(error).toBeInstanceOf(ProviderError);
    expect([(error as ProviderError).kind, (error as ProviderError).message]).toEqual([
      'permanent',
      expect.stringMatching(/^FCM token endpoint HTTP 400: invalid_grant .*check FCM_SERVICE_ACCOUNT_FILE/),
    ]);
  });
});
