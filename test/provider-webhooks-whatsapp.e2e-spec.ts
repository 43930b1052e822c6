import { createHmac } from 'node:crypto';
import { startTestApp, type TestApp } from './helpers/test-app.js';

const APP_SECRET = 'meta-app-secret-0123456789abcdef';
const VERIFY_TOKEN = 'verify-token-0123';

/** WhatsApp Cloud API webhooks: GET challenge, X-Hub-Signature-256 on the raw body, statuses. */
describe('provider webhooks: Meta WhatsApp', () => {
  let t: TestApp;
  let project: { id: string; key: string };

  beforeAll(async () => {
    t = await startTestApp({
      env: {
        WHATSAPP_PROVIDER: 'log',
        WHATSAPP_APP_SECRET: APP_SECRET,
        WHATSAPP_VERIFY_TOKEN: VERIFY_TOKEN,
        WHATSAPP_RATE_PER_SEC: '0',
      },
    });
    project = await t.createProject();
  });
  afterAll(() => t.close());

  let n = 0;
  const sent = async () => {
    const to = `+447700${String(++n).padStart(6, '0')}`;
    const res = await t.http
      .post('/v1/send')
      .set('X-Api-Key', project.key)
      .send({ channels: ['whatsapp'], to, body: 'hello' });
    expect(res.status).toBe(200);
    const id = res.body.job_ids[0] as string;
    await t.worker.drainOnce();
    const job = (await t.http.get(`/v1/jobs/${id}`).set('X-Api-Key', project.key)).body;
    expect(job.status).toBe('sent');
    return { id, to, wamid: job.provider_message_id as string };
  };
  const webhook = (statuses: Record<string, unknown>[]) =>
    JSON.stringify({
      object: 'whatsapp_business_account',
      entry: [
        {
          id: '102290129340398',
          changes: [
            {
              field: 'messages',
              value: { messaging_product: 'whatsapp', metadata: { phone_number_id: '106540352242922' }, statuses },
            },
          ],
        },
      ],
    });
  const post = (raw: string, signature = `sha256=${createHmac('sha256', APP_SECRET).update(raw).digest('hex')}`) =>
    t.http
      .post('/webhooks/whatsapp')
      .set('content-type', 'application/json')
      .set('x-hub-signature-256', signature)
      .send(raw);
  const job = async (id: string) => (await t.http.get(`/v1/jobs/${id}`).set('X-Api-Key', project.key)).body;

  it('GET echoes hub.challenge for the right verify token only', async () => {
    const ok = await t.http
      .get('/webhooks/whatsapp')
      .query({ 'hub.mode': 'subscribe', 'hub.verify_token': VERIFY_TOKEN, 'hub.challenge': '1158201444' });
    expect([ok.status, ok.text, ok.headers['content-type']]).toEqual([200, '1158201444', 'text/plain; charset=utf-8']);
    const wrong = await t.http
      .get('/webhooks/whatsapp')
      .query({ 'hub.mode': 'subscribe', 'hub.verify_token': 'nope', 'hub.challenge': '1' });
    expect(wrong.status).toBe(403);
  });

  it('delivered, read and failed(131050) in one webhook: each applied once; the number is suppressed for marketing', async () => {
    const a = await sent();
    const b = await sent();
    const ts = String(Math.floor(Date.parse('2026-11-30T10:00:00Z') / 1000));
    const raw = webhook([
      { id: a.wamid, status: 'delivered', timestamp: ts, recipient_id: a.to.slice(1) },
      { id: a.wamid, status: 'read', timestamp: ts, recipient_id: a.to.slice(1) },
      {
        id: b.wamid,
        status: 'failed',
        timestamp: ts,
        recipient_id: b.to.slice(1),
        errors: [
          {
            code: 131050,
            title:
              'Unable to deliver the message. This recipient has chosen to stop receiving marketing messages on WhatsApp from your business.',
          },
        ],
      },
    ]);
    expect((await post(raw)).body).toEqual({ success: true, recorded: 3, duplicates: 0 });
    expect((await post(raw)).body).toEqual({ success: true, recorded: 0, duplicates: 3 });
    const pa = await job(a.id);
    expect([pa.delivered_at, pa.opened_at]).toEqual(['2026-11-30T10:00:00.000Z', '2026-11-30T10:00:00.000Z']);
    const pb = await job(b.id);
    expect(pb.status).toBe('bounced');
    expect(pb.error).toMatch(/^whatsapp 131050: Unable to deliver/);
    const rows = await t.db.sql(
      `SELECT channel, scope, reason, source FROM suppressions WHERE project_id = $1 AND source_job_id = $2`,
      [project.id, b.id],
    );
    expect(rows).toEqual([{ channel: 'whatsapp', scope: 'marketing', reason: 'stop', source: 'whatsapp-webhook' }]);
  });

  it('refuses a bad signature with 401 before parsing, and a missing one', async () => {
    const a = await sent();
    const raw = webhook([{ id: a.wamid, status: 'delivered', timestamp: '1764496800' }]);
    expect(
      (await post(raw, `sha256=${createHmac('sha256', 'wrong-secret-0123456789').update(raw).digest('hex')}`)).status,
    ).toBe(401);
    expect(
      (
        await post(
          raw.replace('delivered', 'failed'),
          `sha256=${createHmac('sha256', APP_SECRET).update(raw).digest('hex')}`,
        )
      ).status,
    ).toBe(401);
    const none = await t.http.post('/webhooks/whatsapp').set('content-type', 'application/json').send(raw);
    expect(none.status).toBe(401);
    expect((await job(a.id)).delivered_at).toBeNull();
  });

  it('the same webhook replayed 10 times concurrently changes state once', async () => {
    const a = await sent();
    const raw = webhook([
      {
        id: a.wamid,
        status: 'failed',
        timestamp: '1764496800',
        errors: [{ code: 131026, title: 'Message undeliverable' }],
      },
    ]);
    const answers = await Promise.all(Array.from({ length: 10 }, () => post(raw)));
    expect(answers.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(answers.reduce((s, r) => s + r.body.recorded, 0)).toBe(1);
    expect(
      await t.db.sql(`SELECT 1 FROM audit_log WHERE resource = $1 AND action = 'job.bounced'`, [a.id]),
    ).toHaveLength(1);
    expect((await job(a.id)).error).toBe('whatsapp 131026: Message undeliverable');
  });

  it('webhooks without statuses (incoming messages) are acknowledged; a status without id is a 400', async () => {
    const inbound = JSON.stringify({
      object: 'whatsapp_business_account',
      entry: [
        {
          id: '1',
          changes: [
            { field: 'messages', value: { messages: [{ from: '447700000001', id: 'wamid.in', type: 'text' }] } },
          ],
        },
      ],
    });
    expect((await post(inbound)).body).toEqual({ success: true, recorded: 0, duplicates: 0 });
    const bad = webhook([{ status: 'delivered' }]);
    expect((await post(bad)).status).toBe(400);
  });
});
