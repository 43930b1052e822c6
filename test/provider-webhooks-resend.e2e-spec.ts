import { randomBytes, randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { sentEmail as sentEmailVia, useProviderApp } from './helpers/provider-app.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';

const SECRET = `whsec_${randomBytes(24).toString('base64')}`;

/** Resend events in: Svix verification on the raw body, dedup by svix-id, effects once. */
describe('provider webhooks: Resend', () => {
  const app = useProviderApp({
    fakes: [],
    env: () => ({ RESEND_WEBHOOK_SECRET: SECRET, OUTBOUND_ALLOW_LOOPBACK: 'true' }),
  });
  beforeAll(async () => {
    // An endpoint so that job events become queued deliveries we can count.
    const hook = await app.t.http
      .post('/v1/webhooks')
      .set('X-Api-Key', app.project.key)
      .send({ url: 'http://127.0.0.1:9/hook', events: ['*'] });
    expect(hook.status).toBe(201);
  });

  /** An email job sent through the API and the worker (log connector). */
  const sentEmail = (to = `jane+${randomUUID().slice(0, 8)}@example.com`) => sentEmailVia(app, to);
  const signed = (payload: string, id = `msg_${randomUUID()}`, at = new Date()) => ({
    'content-type': 'application/json',
    'svix-id': id,
    'svix-timestamp': String(Math.floor(at.getTime() / 1000)),
    'svix-signature': new Webhook(SECRET).sign(id, at, payload),
  });
  const post = (payload: string, headers: Record<string, string>) =>
    app.t.http.post('/webhooks/resend').set(headers).send(payload);
  const event = (type: string, data: Record<string, unknown>) =>
    JSON.stringify({ type, created_at: new Date().toISOString(), data });
  const job = async (id: string) => (await app.t.http.get(`/v1/jobs/${id}`).set('X-Api-Key', app.project.key)).body;
  const deliveries = (jobId: string) =>
    app.t.db.sql(
      `SELECT event_type FROM webhook_deliveries WHERE payload->'data'->>'job_id' = $1 AND event_type <> 'job.queued' AND event_type <> 'job.sent' ORDER BY created_at`,
      [jobId],
    );
  const suppressions = (address: string) =>
    app.t.db.sql(
      `SELECT channel, scope, reason, source, source_job_id FROM suppressions WHERE project_id = $1 AND address = $2 AND released_at IS NULL`,
      [app.project.id, address],
    );
  const audits = (jobId: string) =>
    app.t.db.sql(`SELECT actor, action FROM audit_log WHERE resource = $1 ORDER BY id`, [jobId]);

  it('refuses a bad signature with 401 and stores nothing', async () => {
    const sent = await sentEmail();
    const payload = event('email.delivered', { email_id: sent.messageId, to: [sent.to] });
    const headers = signed(payload);
    const tampered = await post(payload.replace('email.delivered', 'email.bounced'), headers);
    expect(tampered.status).toBe(401);
    expect(tampered.body).toMatchObject({ error: 'invalid_signature' });
    const missing = await post(payload, { 'content-type': 'application/json' });
    expect(missing.status).toBe(401);
    expect(missing.body.message).toMatch(/missing svix-id/);
    const old = new Date(Date.now() - 10 * 60_000);
    const stale = await post(payload, signed(payload, 'msg_stale', old));
    expect(stale.status).toBe(401);
    expect(stale.body.message).toMatch(/300 s/);
    // A bad signature is refused before the body is parsed: broken JSON still gets 401, not 400.
    expect((await post('{not json', { ...headers, 'svix-id': 'msg_x' })).status).toBe(401);
    expect(await app.t.db.sql(`SELECT 1 FROM provider_events WHERE job_id = $1`, [sent.id])).toHaveLength(0);
    expect((await job(sent.id)).delivered_at).toBeNull();
  });

  it('a signed but malformed body is a 400', async () => {
    const res = await post('{not json', signed('{not json'));
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_json');
  });

  it('delivered: stamps the job once (found by message id), shows it on the job page, a replay changes nothing', async () => {
    const sent = await sentEmail();
    // Unusual spacing: the signature covers these exact bytes, not a re-serialisation.
    const payload = `{ "type" : "email.delivered", "created_at": "2026-11-30T10:00:03.000Z",\n "data": {"email_id": "${sent.messageId}", "to": ["${sent.to}"]} }`;
    const headers = signed(payload);
    const first = await post(payload, headers);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ success: true, recorded: 1, duplicates: 0 });
    const again = await post(payload, headers);
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ success: true, recorded: 0, duplicates: 1 });
    const page = await job(sent.id);
    expect(page.delivered_at).toBe('2026-11-30T10:00:03.000Z');
    expect(page.status).toBe('sent');
    expect(page.provider_events).toEqual([
      {
        provider: 'resend',
        type: 'email.delivered',
        kind: 'delivered',
        occurred_at: '2026-11-30T10:00:03.000Z',
        provider_message_id: sent.messageId,
        recipients: [sent.to],
        error: null,
      },
    ]);
    expect(await deliveries(sent.id)).toEqual([{ event_type: 'job.delivered' }]);
  });

  it('hard bounce: job bounced, outbound job.bounced, audited as resend-webhook; the notifyd_job_id tag picks among jobs sharing the message id', async () => {
    const sent = await sentEmail();
    const sibling = await sentEmail();
    await app.t.db.sql(`UPDATE jobs SET provider_message_id = $1 WHERE id = $2`, [sent.messageId, sibling.id]);
    const payload = event('email.bounced', {
      email_id: sent.messageId,
      to: [sent.to],
      tags: { notifyd_job_id: sent.id },
      bounce: { type: 'Permanent', subType: 'General', message: 'mailbox does not exist' },
    });
    expect((await post(payload, signed(payload))).status).toBe(200);
    const page = await job(sent.id);
    expect(page.status).toBe('bounced');
    expect(page.bounced_at).not.toBeNull();
    expect(page.error).toBe('bounced (Permanent/General): mailbox does not exist');
    expect(page.provider_events.map((e: { kind: string }) => e.kind)).toEqual(['bounced']);
    expect(await deliveries(sent.id)).toEqual([{ event_type: 'job.bounced' }]);
    expect(await audits(sent.id)).toContainEqual({ actor: 'resend-webhook', action: 'job.bounced' });
    expect(await suppressions(sent.to)).toEqual([
      { channel: 'email', scope: 'all', reason: 'bounce', source: 'resend-webhook', source_job_id: sent.id },
    ]);
    expect((await job(sibling.id)).status).toBe('sent');
    // Visible through the API, and the next email to the address is stopped by it.
    const listed = await app.t.http.get('/v1/suppressions').set('X-Api-Key', app.project.key);
    expect(JSON.stringify(listed.body)).toContain(sent.to);
  });

  it('soft bounce is recorded only; complaint stamps complained_at and fires job.complained', async () => {
    const sent = await sentEmail();
    const soft = event('email.bounced', {
      email_id: sent.messageId,
      to: [sent.to],
      bounce: { type: 'Transient', message: 'mailbox full' },
    });
    expect((await post(soft, signed(soft))).status).toBe(200);
    let page = await job(sent.id);
    expect([page.status, page.bounced_at]).toEqual(['sent', null]);
    expect(await suppressions(sent.to)).toEqual([]);
    expect(page.provider_events[0]).toMatchObject({ kind: 'soft_bounced', error: 'bounced (Transient): mailbox full' });

    const complaint = event('email.complained', { email_id: sent.messageId, to: [sent.to] });
    expect((await post(complaint, signed(complaint))).status).toBe(200);
    page = await job(sent.id);
    expect(page.complained_at).not.toBeNull();
    expect(page.status).toBe('sent');
    expect(await deliveries(sent.id)).toEqual([{ event_type: 'job.complained' }]);
    expect(await suppressions(sent.to)).toEqual([
      { channel: 'email', scope: 'all', reason: 'complaint', source: 'resend-webhook', source_job_id: sent.id },
    ]);
  });

  it('the same event replayed 10 times concurrently changes state once', async () => {
    const sent = await sentEmail();
    const payload = event('email.bounced', {
      email_id: sent.messageId,
      to: [sent.to],
      bounce: { type: 'Permanent', message: 'no such user' },
    });
    const headers = signed(payload);
    const answers = await Promise.all(Array.from({ length: 10 }, () => post(payload, headers)));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    expect(answers.reduce((n, a) => n + a.body.recorded, 0)).toBe(1);
    expect(answers.reduce((n, a) => n + a.body.duplicates, 0)).toBe(9);
    expect(await app.t.db.sql(`SELECT 1 FROM provider_events WHERE job_id = $1`, [sent.id])).toHaveLength(1);
    expect(await deliveries(sent.id)).toEqual([{ event_type: 'job.bounced' }]);
    expect((await audits(sent.id)).filter((a) => a.action === 'job.bounced')).toHaveLength(1);
    expect((await job(sent.id)).status).toBe('bounced');
    expect(await suppressions(sent.to)).toHaveLength(1);
  });

  it('an event for no known job is kept as evidence and answered 200', async () => {
    const payload = event('email.delivered', { email_id: `unknown-${randomUUID()}`, to: ['x@example.com'] });
    const res = await post(payload, signed(payload));
    expect(res.body).toEqual({ success: true, recorded: 1, duplicates: 0 });
    const rows = await app.t.db.sql(
      `SELECT job_id, project_id FROM provider_events WHERE provider = 'resend' AND provider_message_id = $1`,
      [JSON.parse(payload).data.email_id],
    );
    expect(rows).toEqual([{ job_id: null, project_id: null }]);
  });
});

describe('provider webhooks: Resend without a secret', () => {
  let t: TestApp;
  beforeAll(async () => (t = await startTestApp()));
  afterAll(() => t.close());

  it('answers 503 (fail closed) and names the variable', async () => {
    const res = await t.http.post('/webhooks/resend').set('content-type', 'application/json').send('{}');
    expect(res.status).toBe(503);
    expect(res.body.message).toMatch(/RESEND_WEBHOOK_SECRET/);
  });
});
