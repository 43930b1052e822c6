import type { OutboundMessage } from '../src/connectors/connector.js';
import { MetaWhatsAppConnector } from '../src/connectors/whatsapp/meta-whatsapp.connector.js';
import { graphError, META_PHONE_NUMBER_ID, META_TOKEN, META_VERSION, MetaGraphFake } from './fakes/meta-graph-fake.js';
import type { FakeAnswer } from './fakes/provider-fake.js';
import { TWILIO_SID, TWILIO_TOKEN, TwilioFake } from './fakes/twilio-fake.js';
import { sendEachRow } from './helpers/error-table.js';
import { outboundMessage, useProviderApp } from './helpers/provider-app.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';

const message = (recipient: string, extra: Partial<OutboundMessage> = {}): OutboundMessage =>
  outboundMessage({
    jobId: '00000000-0000-4000-8000-000000000003',
    channel: 'whatsapp',
    recipient,
    body: 'Your order shipped',
    ...extra,
  });

const TEMPLATE = {
  name: 'order_shipped',
  language: 'en_US',
  components: [{ type: 'body', parameters: [{ type: 'text', text: 'A-1042' }] }],
};

describe('WhatsApp: Meta Cloud API', () => {
  const fake = new MetaGraphFake();
  const app = useProviderApp({
    fakes: [fake],
    env: () => ({
      WHATSAPP_PROVIDER: 'meta',
      WHATSAPP_ACCESS_TOKEN: META_TOKEN,
      WHATSAPP_PHONE_NUMBER_ID: META_PHONE_NUMBER_ID,
      WHATSAPP_API_BASE: `${fake.url}/${META_VERSION}`,
      // 3 s: short enough for the stall rows, long enough for a cold first call on a loaded CI machine.
      OUTBOUND_TIMEOUT_MS: '3000',
    }),
    clearRequests: true,
  });
  const { job } = app;
  const send = (to: string, extra: Record<string, unknown> = {}) =>
    app.send({ channels: ['whatsapp'], to, body: 'Your order {{order}} shipped', vars: { order: 'A-1042' }, ...extra });

  it('maps every documented WhatsApp error code to rate_limited / transient / permanent, keeping the code', async () => {
    const connector = app.t.notifyd.app.get(MetaWhatsAppConnector);
    type Row = [code: number | string, answer: FakeAnswer, kind: string, retryAfterMs?: number];
    const e = (code: number, status = 400) => graphError(code, `error ${code}`, { status });
    const rows: Row[] = [
      [0, e(0, 401), 'permanent'],
      [1, e(1, 500), 'transient'],
      [2, e(2, 503), 'transient'],
      [3, e(3), 'permanent'],
      [4, e(4, 403), 'rate_limited'],
      [10, e(10, 403), 'permanent'],
      [100, e(100), 'permanent'],
      [190, e(190, 401), 'permanent'],
      [200, e(200, 403), 'permanent'],
      [368, e(368, 403), 'permanent'],
      [80007, e(80007), 'rate_limited'],
      [130429, e(130429), 'rate_limited'],
      [130472, e(130472), 'permanent'],
      [131000, e(131000, 500), 'transient'],
      [131005, e(131005, 403), 'permanent'],
      [131008, e(131008), 'permanent'],
      [131009, e(131009), 'permanent'],
      [131016, e(131016, 503), 'transient'],
      [131021, e(131021), 'permanent'],
      [131026, e(131026), 'permanent'],
      [131030, e(131030), 'permanent'],
      [131031, e(131031), 'permanent'],
      [131042, e(131042), 'permanent'],
      [131045, e(131045), 'permanent'],
      [131047, e(131047), 'permanent'],
      [131048, e(131048), 'rate_limited'],
      [131049, e(131049), 'transient'],
      [131050, e(131050), 'permanent'],
      [131051, e(131051), 'permanent'],
      [131052, e(131052), 'permanent'],
      [131053, e(131053), 'permanent'],
      [131056, e(131056), 'rate_limited', 6000],
      [131057, e(131057), 'transient'],
      [132000, e(132000), 'permanent'],
      [132001, e(132001), 'permanent'],
      [132005, e(132005), 'permanent'],
      [132007, e(132007), 'permanent'],
      [132012, e(132012), 'permanent'],
      [132015, e(132015), 'permanent'],
      [132016, e(132016), 'permanent'],
      [133004, e(133004, 503), 'transient'],
      [133010, e(133010), 'permanent'],
      [135000, e(135000), 'permanent'],
      ['unlisted 999999 on a 500', e(999999, 500), 'transient'],
      ['unlisted 999998 on a 400', e(999998), 'permanent'],
      [
        '429 with Retry-After, no body',
        { status: 429, text: '', headers: { 'Retry-After': '7' } },
        'rate_limited',
        7000,
      ],
      ['stall past OUTBOUND_TIMEOUT_MS', 'stall', 'transient'],
    ];
    const results = await sendEachRow(connector, fake, '+1555030', rows, message);
    const seen = results.map((result, i) => {
      const label = rows[i][0];
      const code = typeof label === 'number' ? String(label) : (/unlisted (\d+)/.exec(label)?.[1] ?? undefined);
      return result.ok
        ? [label, 'ok']
        : [label, result.error.kind, result.error.providerCode === code, result.error.retryAfterMs];
    });
    expect(seen).toEqual(rows.map(([label, , kind, retry]) => [label, kind, true, retry]));
    expect(fake.requests).toHaveLength(rows.length);
  });

  it('end to end: free text inside the window is exactly the Cloud API text message, and the wamid is stored', async () => {
    const id = await send('+15551234567');
    await app.t.worker.drainOnce();
    expect(fake.requests).toHaveLength(1);
    const [req] = fake.requests;
    expect([req.method, req.path]).toEqual(['POST', `/${META_VERSION}/${META_PHONE_NUMBER_ID}/messages`]);
    expect(req.headers.authorization).toBe(`Bearer ${META_TOKEN}`);
    expect(req.headers['content-type']).toBe('application/json');
    expect(JSON.parse(req.raw)).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: '+15551234567',
      type: 'text',
      text: { body: 'Your order A-1042 shipped', preview_url: false },
    });
    const row = await job(id);
    expect(row).toMatchObject({ status: 'sent', attempts: 1, provider: 'meta' });
    expect(row.provider_message_id).toMatch(/^wamid\./);
  });

  it('end to end: outside the window, the template goes out when one was given; without one the job fails saying a template is needed', async () => {
    const withTemplate = await send('+15550100047', { whatsapp: { template: TEMPLATE } });
    await app.t.worker.drainOnce();
    expect(fake.requests.map((r) => r.body.type)).toEqual(['text', 'template']);
    expect(JSON.parse(fake.requests[1].raw)).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: '+15550100047',
      type: 'template',
      template: { name: 'order_shipped', language: { code: 'en_US' }, components: TEMPLATE.components },
    });
    expect(await job(withTemplate)).toMatchObject({ status: 'sent', attempts: 1 });

    const withoutTemplate = await send('+15550100047');
    await app.t.worker.drainOnce();
    expect(await job(withoutTemplate)).toMatchObject({ status: 'failed', attempts: 1 });
    expect((await job(withoutTemplate)).error).toMatch(/131047.*needs an approved template: pass whatsapp\.template/);

    const templateOnly = await send('+15559990000', {
      body: undefined,
      vars: undefined,
      whatsapp: { template: TEMPLATE },
    });
    await app.t.worker.drainOnce();
    expect(fake.requests.at(-1)!.body.type).toBe('template');
    expect(await job(templateOnly)).toMatchObject({ status: 'sent' });
  });

  it('end to end: 131050 fails the job and governance records a marketing stop; a 130429 pauses the lane without using an attempt', async () => {
    const stopped = await send('+15005550004');
    await app.t.worker.drainOnce();
    expect(await job(stopped)).toMatchObject({ status: 'failed', attempts: 1, provider: 'meta' });
    const suppressions = await app.t.db.sql(
      `SELECT channel, address, reason, scope FROM suppressions WHERE project_id = $1`,
      [app.project.id],
    );
    expect(suppressions).toEqual([
      { channel: 'whatsapp', address: '+15005550004', reason: 'stop', scope: 'marketing' },
    ]);

    const limited = await send('+15005550429');
    await app.t.worker.drainOnce();
    expect(await job(limited)).toMatchObject({ status: 'pending', attempts: 0 });
    const [lane] = await app.t.db.sql(
      `SELECT pause_kind, paused_until > now() AS paused FROM pacing_lanes WHERE lane_key = 'whatsapp:meta'`,
    );
    expect(lane).toEqual({ pause_kind: 'rate_limited', paused: true });
  });

  it('refuses bad WhatsApp options at the API with the field named', async () => {
    const res = await app.t.http
      .post('/v1/send')
      .set('X-Api-Key', app.project.key)
      .send({
        channels: ['whatsapp'],
        to: '+15551234567',
        whatsapp: { template: { name: 'Order Shipped!', language: 'english' } },
      });
    expect(res.status).toBe(422);
    expect(res.body.message).toMatch(/whatsapp\.template\.name must be the template name/);
    expect(res.body.message).toMatch(/whatsapp\.template\.language must be a template language code/);
  });
});

describe('WhatsApp: Twilio', () => {
  const fake = new TwilioFake();
  const app = useProviderApp({
    fakes: [fake],
    env: () => ({
      WHATSAPP_PROVIDER: 'twilio',
      WHATSAPP_FROM: '+14155238886',
      TWILIO_ACCOUNT_SID: TWILIO_SID,
      TWILIO_AUTH_TOKEN: TWILIO_TOKEN,
      TWILIO_API_BASE: fake.url,
      PUBLIC_URL: 'https://notify.example.com',
    }),
    clearRequests: true,
  });
  const { job } = app;
  const send = (to: string, extra: Record<string, unknown> = {}) =>
    app.send({ channels: ['whatsapp'], to, body: 'Your order shipped', ...extra });

  it('end to end: whatsapp: addresses, Basic auth, form body with a status callback; the sid is stored', async () => {
    const id = await send('+15551234567');
    await app.t.worker.drainOnce();
    const [req] = fake.requests;
    expect(req.path).toBe(`/2010-04-01/Accounts/${TWILIO_SID}/Messages.json`);
    expect(req.headers.authorization).toBe(`Basic ${Buffer.from(`${TWILIO_SID}:${TWILIO_TOKEN}`).toString('base64')}`);
    expect(req.body).toEqual({
      To: 'whatsapp:+15551234567',
      From: 'whatsapp:+14155238886',
      Body: 'Your order shipped',
      StatusCallback: `https://notify.example.com/webhooks/twilio/status?job=${id}`,
    });
    expect(await job(id)).toMatchObject({ status: 'sent', provider: 'twilio' });
  });

  it('end to end: outside the window (63016) the Content API template goes out; without one the job fails saying so', async () => {
    fake.windowClosed.add('whatsapp:+15550100063');
    const content = { content_sid: `HX${'ab'.repeat(16)}`, content_variables: { '1': 'A-1042' } };
    const withTemplate = await send('+15550100063', { whatsapp: content });
    await app.t.worker.drainOnce();
    expect(fake.requests.map((r) => r.body.ContentSid ?? 'text')).toEqual(['text', content.content_sid]);
    expect(fake.requests[1].body).toMatchObject({
      To: 'whatsapp:+15550100063',
      ContentSid: content.content_sid,
      ContentVariables: '{"1":"A-1042"}',
    });
    expect(fake.requests[1].body.Body).toBeUndefined();
    expect(await job(withTemplate)).toMatchObject({ status: 'sent' });

    const withoutTemplate = await send('+15550100063');
    await app.t.worker.drainOnce();
    expect(await job(withoutTemplate)).toMatchObject({ status: 'failed' });
    expect((await job(withoutTemplate)).error).toMatch(
      /^twilio 63016: .*send an approved template \(whatsapp\.content_sid\)/,
    );
  });
});

describe('channel options without their channel', () => {
  let t: TestApp;
  let project: { id: string; key: string };
  beforeAll(async () => {
    t = await startTestApp({ env: { WHATSAPP_PROVIDER: 'log', SLACK_PROVIDER: 'log' } });
    project = await t.createProject();
  });
  afterAll(async () => t?.close());

  it('are refused with a 422 naming the option, on /v1/send and /v1/batch, instead of being silently ignored', async () => {
    const send = (body: Record<string, unknown>) =>
      t.http
        .post('/v1/send')
        .set('X-Api-Key', project.key)
        .send({ to: '+15551234567', body: 'x', ...body });
    const wa = await send({ channels: ['sms'], whatsapp: { template: { name: 'order_shipped', language: 'en' } } });
    expect([wa.status, wa.body.message]).toEqual([
      422,
      expect.stringMatching(/^whatsapp applies to the whatsapp channel only/),
    ]);
    const chat = await send({ channels: ['sms'], chat: { text: 'hi' } });
    expect([chat.status, chat.body.message]).toEqual([
      422,
      expect.stringMatching(/^chat applies to the slack, discord and telegram channels only/),
    ]);
    const batch = await t.http
      .post('/v1/batch')
      .set('X-Api-Key', project.key)
      .send({ channels: ['in_app'], subscribers: ['u1'], body: 'x', chat: { text: 'hi' } });
    expect(batch.status).toBe(422);
    expect(
      (
        await send({
          channels: ['whatsapp', 'slack'],
          whatsapp: { content_sid: `HX${'0'.repeat(32)}` },
          chat: { text: 'hi' },
        })
      ).status,
    ).toBe(200);
  });
});
