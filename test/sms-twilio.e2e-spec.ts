import { TwilioSmsConnector } from '../src/connectors/sms/twilio-sms.connector.js';
import { TWILIO_SID, TWILIO_TOKEN, TwilioFake, twilioError } from './fakes/twilio-fake.js';
import { type ClassificationRow, classifications } from './helpers/error-table.js';
import { smsMessage, useProviderApp } from './helpers/provider-app.js';

/** SMS over Twilio: the SDK pointed at a local fake that speaks Twilio's REST API. */
describe('SMS: Twilio', () => {
  const fake = new TwilioFake();
  const app = useProviderApp({
    fakes: [fake],
    env: () => ({
      SMS_PROVIDER: 'twilio',
      SMS_FROM: '+15005550006',
      TWILIO_ACCOUNT_SID: TWILIO_SID,
      TWILIO_AUTH_TOKEN: TWILIO_TOKEN,
      TWILIO_API_BASE: fake.url,
      PUBLIC_URL: 'https://notify.example.com/',
      // 3 s: short enough for the stall rows, long enough for a cold first call on a loaded CI machine.
      OUTBOUND_TIMEOUT_MS: '3000',
    }),
    clearRequests: true,
  });
  const { job } = app;
  const send = (to: string, extra: Record<string, unknown> = {}) =>
    app.send({ channels: ['sms'], to, body: 'hi', ...extra });

  it('maps every documented Twilio error to rate_limited / transient / permanent, keeping the code and marking dead numbers', async () => {
    const connector = app.t.notifyd.app.get(TwilioSmsConnector);
    const rows: ClassificationRow[] = [
      [
        '20429 too many concurrent requests',
        twilioError(429, 20429, 'Too Many Requests', { 'Retry-After': '3' }),
        'rate_limited',
        false,
        '20429',
        3000,
      ],
      [
        '14107 sender rate limit',
        twilioError(400, 14107, 'Message rate limit exceeded'),
        'rate_limited',
        false,
        '14107',
      ],
      [
        '63018 channel rate limit',
        twilioError(429, 63018, 'Rate limit exceeded for Channel'),
        'rate_limited',
        false,
        '63018',
      ],
      [
        '429 without a code',
        { status: 429, text: 'slow down', headers: { 'Retry-After': '5' } },
        'rate_limited',
        false,
        undefined,
        5000,
      ],
      ['20003 authentication', twilioError(401, 20003, 'Authenticate'), 'permanent', false, '20003'],
      ['20404 not found', twilioError(404, 20404, 'Not found'), 'permanent', false, '20404'],
      ['20500 internal error', twilioError(500, 20500, 'Internal Server Error'), 'transient', false, '20500'],
      ['20503 unavailable', twilioError(503, 20503, 'Service Unavailable'), 'transient', false, '20503'],
      ['502 without a code', { status: 502, text: 'Bad Gateway' }, 'transient', false, undefined],
      ['21211 invalid To', twilioError(400, 21211, 'invalid To'), 'permanent', true, '21211'],
      ['21214 To unreachable', twilioError(400, 21214, 'To number cannot be reached'), 'permanent', true, '21214'],
      [
        '21217 not a valid number',
        twilioError(400, 21217, 'Phone number does not appear to be valid'),
        'permanent',
        true,
        '21217',
      ],
      [
        '21408 region not enabled',
        twilioError(400, 21408, 'Permission to send an SMS has not been enabled for the region'),
        'permanent',
        false,
        '21408',
      ],
      [
        '21606 From not SMS-capable',
        twilioError(400, 21606, 'From is not a valid, SMS-capable inbound phone number'),
        'permanent',
        false,
        '21606',
      ],
      [
        '21610 replied STOP',
        twilioError(400, 21610, 'Attempt to send to unsubscribed recipient'),
        'permanent',
        true,
        '21610',
      ],
      ['21612 cannot route', twilioError(400, 21612, 'Cannot route'), 'permanent', false, '21612'],
      ['21614 not a mobile', twilioError(400, 21614, 'not a valid mobile number'), 'permanent', true, '21614'],
      [
        '21617 body too long',
        twilioError(400, 21617, 'The concatenated message body exceeds the 1600 character limit'),
        'permanent',
        false,
        '21617',
      ],
      [
        '21659 From not owned',
        twilioError(400, 21659, 'Source number is not a Twilio phone number'),
        'permanent',
        false,
        '21659',
      ],
      [
        '21660 From mismatch',
        twilioError(400, 21660, 'Mismatch between the From number and the account'),
        'permanent',
        false,
        '21660',
      ],
      [
        '63003 WhatsApp address unknown',
        twilioError(400, 63003, 'Channel could not find To address'),
        'permanent',
        true,
        '63003',
      ],
      [
        '63016 outside the WhatsApp window',
        twilioError(400, 63016, 'Failed to send freeform message because you are outside the allowed window'),
        'permanent',
        false,
        '63016',
      ],
      [
        '63024 invalid WhatsApp recipient',
        twilioError(400, 63024, 'Invalid message recipient'),
        'permanent',
        true,
        '63024',
      ],
      ['other 4xx code', twilioError(400, 21620, 'Invalid media URL'), 'permanent', false, '21620'],
      ['stall past OUTBOUND_TIMEOUT_MS', 'stall', 'transient', false, undefined],
    ];
    const { seen, expected } = await classifications(connector, fake, '+1555010', rows, smsMessage);
    expect(seen).toEqual(expected);
    // Every row reached Twilio (nothing decided locally), and the text names the code.
    expect(fake.requests).toHaveLength(rows.length);
    fake.script.set('+15550199999', twilioError(400, 21610, 'Attempt to send to unsubscribed recipient'));
    const [stop] = await connector.send([smsMessage('+15550199999')]);
    expect(!stop.ok && stop.error.message).toMatch(/^twilio 21610: Attempt to send to unsubscribed recipient/);
  });

  it('refuses without calling Twilio: a To that is not E.164 (dead), a bad sender, nothing to say', async () => {
    const connector = app.t.notifyd.app.get(TwilioSmsConnector);
    const results = await connector.send([
      smsMessage('0612345678'),
      smsMessage('+15551230000', { payload: { sms: { from: 'Not-valid!' } } }),
      smsMessage('+15551230000', { body: undefined, subject: undefined }),
    ]);
    expect(results.map((r) => (r.ok ? 'ok' : [r.error.kind, r.error.deadRecipient]))).toEqual([
      ['permanent', true],
      ['permanent', false],
      ['permanent', false],
    ]);
    expect(fake.requests).toHaveLength(0);
  });

  it('end to end: the worker sends exactly what Twilio expects (Basic auth, form fields, status callback) and stores the sid', async () => {
    const id = await send('+15551234567', {
      body: 'Your code is {{code}}',
      vars: { code: '4242' },
      sms: { from: 'Acme' },
    });
    await app.t.worker.drainOnce();
    expect(fake.requests).toHaveLength(1);
    const [req] = fake.requests;
    expect(req.method).toBe('POST');
    expect(req.path).toBe(`/2010-04-01/Accounts/${TWILIO_SID}/Messages.json`);
    expect(req.headers.authorization).toBe(`Basic ${Buffer.from(`${TWILIO_SID}:${TWILIO_TOKEN}`).toString('base64')}`);
    expect(req.headers['content-type']).toMatch(/^application\/x-www-form-urlencoded/);
    expect(req.headers['user-agent']).toMatch(/^twilio-node\//);
    expect(req.body).toEqual({
      To: '+15551234567',
      From: 'Acme',
      Body: 'Your code is 4242',
      StatusCallback: `https://notify.example.com/webhooks/twilio/status?job=${id}`,
    });
    const row = await job(id);
    expect(row).toMatchObject({ status: 'sent', attempts: 1, provider: 'twilio' });
    expect(row.provider_message_id).toMatch(/^SM[0-9a-f]{32}$/);
  });

  it('end to end: STOP fails the job with the code, a stalled call is retried, a 429 pauses the lane without using an attempt', async () => {
    const stop = await send('+15005550004');
    await app.t.worker.drainOnce();
    expect(await job(stop)).toMatchObject({ status: 'failed', attempts: 1, provider: 'twilio' });
    expect((await job(stop)).error).toMatch(/^twilio 21610/);
    expect(
      await app.t.db.sql(`SELECT channel, address, reason, scope FROM suppressions WHERE project_id = $1`, [
        app.project.id,
      ]),
    ).toEqual([{ channel: 'sms', address: '+15005550004', reason: 'stop', scope: 'all' }]);

    const stalled = await send('+15005550777');
    await app.t.worker.drainOnce();
    expect(await job(stalled)).toMatchObject({ status: 'retry', attempts: 1 });
    expect((await job(stalled)).error).toMatch(/timeout/i);

    const limited = await send('+15005550429');
    await app.t.worker.drainOnce();
    expect(await job(limited)).toMatchObject({ status: 'pending', attempts: 0 });
    // The pause as written (Retry-After: 2), not whether it is still on: a loaded machine can
    // take longer than 2 s to drain and read.
    const [lane] = await app.t.db.sql(
      `SELECT pause_kind, paused_until - paused_at >= interval '2 seconds' AS paused, paused_until - paused_at AS pause FROM pacing_lanes WHERE lane_key = 'sms:twilio'`,
    );
    expect(lane).toMatchObject({ pause_kind: 'rate_limited', paused: true });
    expect(fake.requests.map((r) => r.body.To)).toEqual(['+15005550004', '+15005550777', '+15005550429']);
  });
});
