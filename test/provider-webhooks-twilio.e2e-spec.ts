import { createHmac } from 'node:crypto';
import { startTestApp, type TestApp } from './helpers/test-app.js';

const TOKEN = 'twilio-auth-token-0123456789abcdef';
const PUBLIC_URL = 'https://notifyd.example.com';

/** Twilio status callbacks: X-Twilio-Signature over PUBLIC_URL + path + sorted form params. */
describe('provider webhooks: Twilio status callbacks', () => {
  let t: TestApp;
  let project: { id: string; key: string };

  beforeAll(async () => {
    t = await startTestApp({ env: { TWILIO_AUTH_TOKEN: TOKEN, PUBLIC_URL, OUTBOUND_ALLOW_LOOPBACK: 'true' } });
    project = await t.createProject();
    expect(
      (
        await t.http
          .post('/v1/webhooks')
          .set('X-Api-Key', project.key)
          .send({ url: 'http://127.0.0.1:9/hook', events: ['job.delivered', 'job.bounced'] })
      ).status,
    ).toBe(201);
  });
  afterAll(() => t.close());

  let n = 0;
  const sentSms = async () => {
    const to = `+336000${String(++n).padStart(5, '0')}`;
    const res = await t.http
      .post('/v1/send')
      .set('X-Api-Key', project.key)
      .send({ channels: ['sms'], to, body: 'code 1234' });
    const id = res.body.job_ids[0] as string;
    await t.worker.drainOnce();
    const job = (await t.http.get(`/v1/jobs/${id}`).set('X-Api-Key', project.key)).body;
    expect(job.status).toBe('sent');
    return { id, to, sid: job.provider_message_id as string };
  };
  const sign = (url: string, params: Record<string, string>, token = TOKEN) =>
    createHmac('sha1', token)
      .update(
        url +
          Object.keys(params)
            .sort()
            .map((k) => k + params[k])
            .join(''),
      )
      .digest('base64');
  const callback = (jobId: string, params: Record<string, string>, signature?: string) => {
    const path = `/webhooks/twilio/status?job=${jobId}`;
    return t.http
      .post(path)
      .set('content-type', 'application/x-www-form-urlencoded')
      .set('x-twilio-signature', signature ?? sign(PUBLIC_URL + path, params))
      .send(new URLSearchParams(params).toString());
  };
  const job = async (id: string) => (await t.http.get(`/v1/jobs/${id}`).set('X-Api-Key', project.key)).body;
  const events = (jobId: string) =>
    t.db.sql(`SELECT event_type FROM webhook_deliveries WHERE payload->'data'->>'job_id' = $1 ORDER BY created_at`, [
      jobId,
    ]);

  it('delivered stamps delivered_at and fires job.delivered; To/From/Body are not stored', async () => {
    const sms = await sentSms();
    const res = await callback(sms.id, {
      MessageSid: sms.sid,
      MessageStatus: 'delivered',
      To: sms.to,
      From: '+15005550006',
      Body: 'code 1234',
      AccountSid: 'AC1',
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, recorded: 1, duplicates: 0 });
    const page = await job(sms.id);
    expect(page.delivered_at).not.toBeNull();
    expect(page.provider_events).toEqual([
      expect.objectContaining({
        provider: 'twilio',
        type: 'delivered',
        kind: 'delivered',
        provider_message_id: sms.sid,
      }),
    ]);
    expect(await events(sms.id)).toEqual([{ event_type: 'job.delivered' }]);
    const stored = await t.db.sql(`SELECT payload::text AS p, recipients FROM provider_events WHERE job_id = $1`, [
      sms.id,
    ]);
    expect(stored[0].p).not.toContain(sms.to);
    expect(stored[0].p).not.toContain('code 1234');
    expect(stored[0].recipients).toEqual([]);
  });

  it('failed with 21610 (STOP) bounces the job and suppresses the number; a later delivered changes nothing', async () => {
    const sms = await sentSms();
    expect(
      (await callback(sms.id, { MessageSid: sms.sid, MessageStatus: 'undelivered', ErrorCode: '21610', To: sms.to }))
        .status,
    ).toBe(200);
    let page = await job(sms.id);
    expect([page.status, page.error]).toEqual(['bounced', 'twilio 21610']);
    const rows = await t.db.sql(
      `SELECT channel, scope, reason, source FROM suppressions WHERE project_id = $1 AND released_at IS NULL AND source_job_id = $2`,
      [project.id, sms.id],
    );
    expect(rows).toEqual([{ channel: 'sms', scope: 'all', reason: 'stop', source: 'twilio-webhook' }]);
    expect(await events(sms.id)).toEqual([{ event_type: 'job.bounced' }]);
    // The next SMS to that number is stopped by the suppression.
    const next = await t.http
      .post('/v1/send')
      .set('X-Api-Key', project.key)
      .send({ channels: ['sms'], to: sms.to, body: 'again' });
    expect(JSON.stringify(next.body)).toMatch(/suppress/i);

    // First terminal outcome wins for SMS: a delivery report after the failure is kept, not applied.
    const other = await sentSms();
    await callback(other.id, { MessageSid: other.sid, MessageStatus: 'delivered' });
    await callback(other.id, { MessageSid: other.sid, MessageStatus: 'failed', ErrorCode: '30003' });
    page = await job(other.id);
    expect([page.status, page.bounced_at]).toEqual(['sent', null]);
    expect(page.provider_events.map((e: { type: string }) => e.type)).toEqual(['delivered', 'failed']);
  });

  it('refuses a bad signature with 401: wrong token, tampered form, and a URL built from the Host header', async () => {
    const sms = await sentSms();
    const params = { MessageSid: sms.sid, MessageStatus: 'failed', ErrorCode: '30005' };
    const path = `/webhooks/twilio/status?job=${sms.id}`;
    expect(
      (await callback(sms.id, params, sign(PUBLIC_URL + path, params, 'another-token-0123456789abcdef'))).status,
    ).toBe(401);
    expect((await callback(sms.id, params, sign(PUBLIC_URL + path, { ...params, ErrorCode: '1' }))).status).toBe(401);
    const viaHost = await callback(sms.id, params, sign(t.url + path, params));
    expect(viaHost.status).toBe(401);
    expect(viaHost.body.error).toBe('invalid_signature');
    const missing = await t.http
      .post(path)
      .set('content-type', 'application/x-www-form-urlencoded')
      .send(new URLSearchParams(params).toString());
    expect(missing.status).toBe(401);
    expect((await job(sms.id)).status).toBe('sent');
  });

  it('a callback for another MessageSid is kept but not applied; bad shapes get 400/415', async () => {
    const sms = await sentSms();
    expect(
      (await callback(sms.id, { MessageSid: 'SMother', MessageStatus: 'failed', ErrorCode: '30003' })).status,
    ).toBe(200);
    expect((await job(sms.id)).status).toBe('sent');
    expect((await callback(sms.id, { MessageSid: sms.sid })).status).toBe(400);
    const json = await t.http
      .post(`/webhooks/twilio/status?job=${sms.id}`)
      .set('content-type', 'application/json')
      .send('{}');
    expect(json.status).toBe(415);
  });

  it('stops reading a callback at 64 KiB: 413 naming the cap, and the job is untouched', async () => {
    const sms = await sentSms();
    const big = { MessageSid: sms.sid, MessageStatus: 'failed', ErrorCode: '30003', Padding: 'x'.repeat(70 * 1024) };
    const res = await callback(sms.id, big);
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ error: 'payload_too_large', message: expect.stringContaining('65536 bytes') });
    expect((await job(sms.id)).status).toBe('sent');
  });

  it('a failure reported before the worker finalised the send leaves the job bounced, not sent', async () => {
    const res = await t.http
      .post('/v1/send')
      .set('X-Api-Key', project.key)
      .send({ channels: ['sms'], to: '+33600099999', body: 'early' });
    const id = res.body.job_ids[0] as string;
    // The callback beats the send's own bookkeeping (the job has no message id yet).
    expect(
      (await callback(id, { MessageSid: 'SMearly', MessageStatus: 'failed', ErrorCode: '30003' })).body.recorded,
    ).toBe(1);
    await t.worker.drainOnce();
    const page = await job(id);
    expect([page.status, page.error, page.bounced_at === null]).toEqual(['bounced', 'twilio 30003', false]);
  });

  it('the same callback replayed 10 times concurrently changes state once', async () => {
    const sms = await sentSms();
    const params = { MessageSid: sms.sid, MessageStatus: 'failed', ErrorCode: '30003' };
    const answers = await Promise.all(Array.from({ length: 10 }, () => callback(sms.id, params)));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    expect(answers.reduce((s, a) => s + a.body.recorded, 0)).toBe(1);
    expect(await events(sms.id)).toEqual([{ event_type: 'job.bounced' }]);
    expect(
      await t.db.sql(`SELECT 1 FROM audit_log WHERE resource = $1 AND action = 'job.bounced'`, [sms.id]),
    ).toHaveLength(1);
  });
});

describe('provider webhooks: Twilio incoming STOP (Advanced Opt-Out)', () => {
  let t: TestApp;
  let project: { id: string; key: string };
  beforeAll(async () => {
    t = await startTestApp({ env: { TWILIO_AUTH_TOKEN: TOKEN, PUBLIC_URL } });
    project = await t.createProject();
  });
  afterAll(() => t.close());

  const inbound = (projectId: string, params: Record<string, string>) => {
    const path = `/webhooks/twilio/inbound?project=${projectId}`;
    const signature = createHmac('sha1', TOKEN)
      .update(
        PUBLIC_URL +
          path +
          Object.keys(params)
            .sort()
            .map((k) => k + params[k])
            .join(''),
      )
      .digest('base64');
    return t.http
      .post(path)
      .set('content-type', 'application/x-www-form-urlencoded')
      .set('x-twilio-signature', signature)
      .send(new URLSearchParams(params).toString());
  };
  const stops = (address: string) =>
    t.db.sql(
      `SELECT channel, scope, reason, source FROM suppressions WHERE project_id = $1 AND address = $2 AND released_at IS NULL`,
      [project.id, address],
    );

  it('OptOutType=STOP suppresses the sender once (answering empty TwiML); other messages are not stored', async () => {
    const stop = { MessageSid: 'SMstop1', From: '+33611111111', To: '+15005550006', Body: 'STOP', OptOutType: 'STOP' };
    const res = await inbound(project.id, stop);
    expect([res.status, res.headers['content-type']]).toEqual([200, 'text/xml; charset=utf-8']);
    expect(res.text).toContain('<Response></Response>');
    await inbound(project.id, stop);
    expect(await stops('+33611111111')).toEqual([
      { channel: 'sms', scope: 'all', reason: 'stop', source: 'twilio-webhook' },
    ]);
    const stored = await t.db.sql(
      `SELECT project_id, payload::text AS p FROM provider_events WHERE event_id = 'SMstop1:inbound'`,
    );
    expect(stored).toHaveLength(1);
    expect(stored[0].project_id).toBe(project.id);
    expect(stored[0].p).not.toContain('+33611111111');

    // WhatsApp senders are suppressed on the whatsapp channel.
    await inbound(project.id, { MessageSid: 'SMstop2', From: 'whatsapp:+33622222222', OptOutType: 'STOP' });
    expect((await stops('+33622222222')).map((r) => r.channel)).toEqual(['whatsapp']);

    expect((await inbound(project.id, { MessageSid: 'SMhello', From: '+33633333333', Body: 'hello' })).status).toBe(
      200,
    );
    expect(await t.db.sql(`SELECT 1 FROM provider_events WHERE event_id LIKE 'SMhello%'`)).toHaveLength(0);
  });

  it('an unknown project is 404, a bad signature 401', async () => {
    expect(
      (await inbound('no-such-project', { MessageSid: 'SMx', From: '+33644444444', OptOutType: 'STOP' })).status,
    ).toBe(404);
    const bad = await t.http
      .post(`/webhooks/twilio/inbound?project=${project.id}`)
      .set('content-type', 'application/x-www-form-urlencoded')
      .set('x-twilio-signature', 'AAAA')
      .send('MessageSid=SMy&From=%2B33655555555&OptOutType=STOP');
    expect(bad.status).toBe(401);
    expect(await stops('+33655555555')).toEqual([]);
  });
});

describe('provider webhooks: Twilio route off', () => {
  let t: TestApp;
  beforeAll(async () => (t = await startTestApp({ env: { TWILIO_AUTH_TOKEN: TOKEN } })));
  afterAll(() => t.close());

  it('answers 503 without PUBLIC_URL (the signed URL cannot be rebuilt)', async () => {
    const res = await t.http
      .post('/webhooks/twilio/status?job=x')
      .set('content-type', 'application/x-www-form-urlencoded')
      .send('MessageSid=SM1&MessageStatus=delivered');
    expect(res.status).toBe(503);
    expect(res.body.message).toMatch(/PUBLIC_URL/);
  });
});
