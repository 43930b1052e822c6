import { TelnyxSmsConnector } from '../src/connectors/sms/telnyx-sms.connector.js';
import { TELNYX_KEY, TELNYX_PROFILE, TelnyxFake, telnyxError } from './fakes/telnyx-fake.js';
import { type ClassificationRow, classifications } from './helpers/error-table.js';
import { smsMessage, useProviderApp } from './helpers/provider-app.js';

/** SMS over Telnyx's v2 Messaging API, against a local fake that speaks it. */
describe('SMS: Telnyx', () => {
  const fake = new TelnyxFake();
  const app = useProviderApp({
    fakes: [fake],
    env: () => ({
      SMS_PROVIDER: 'telnyx',
      SMS_FROM: '+15005550006',
      TELNYX_API_KEY: TELNYX_KEY,
      TELNYX_MESSAGING_PROFILE_ID: TELNYX_PROFILE,
      TELNYX_API_BASE: fake.url,
      // 3 s: short enough for the stall rows, long enough for a cold first call on a loaded CI machine.
      OUTBOUND_TIMEOUT_MS: '3000',
    }),
    clearRequests: true,
  });
  const { job } = app;
  const send = (to: string, extra: Record<string, unknown> = {}) =>
    app.send({ channels: ['sms'], to, body: 'hi', ...extra });

  it('maps every documented Telnyx error code to rate_limited / transient / permanent, keeping the code and marking dead numbers', async () => {
    const connector = app.t.notifyd.app.get(TelnyxSmsConnector);
    const rows: ClassificationRow[] = [
      ['10005 not found', telnyxError(404, '10005', 'Resource not found'), 'permanent', false, '10005'],
      ['10007 unexpected error', telnyxError(500, '10007', 'Unexpected error'), 'transient', false, '10007'],
      ['10009 authentication', telnyxError(401, '10009', 'Authentication failed'), 'permanent', false, '10009'],
      ['10010 authorization', telnyxError(403, '10010', 'Authorization failed'), 'permanent', false, '10010'],
      [
        '10011 too many requests',
        telnyxError(429, '10011', 'Too many requests', undefined, { 'Retry-After': '4' }),
        'rate_limited',
        false,
        '10011',
        4000,
      ],
      ['40001 not routable', telnyxError(422, '40001', 'Not routable'), 'permanent', false, '40001'],
      ['40002 spam, temporary', telnyxError(422, '40002', 'Blocked as spam - temporary'), 'transient', false, '40002'],
      ['40003 spam, permanent', telnyxError(422, '40003', 'Blocked as spam - permanent'), 'permanent', false, '40003'],
      [
        '40004 rejected by destination',
        telnyxError(422, '40004', 'Rejected by destination'),
        'permanent',
        false,
        '40004',
      ],
      [
        '40005 expired in transit',
        telnyxError(422, '40005', 'Message expired during transmission'),
        'transient',
        false,
        '40005',
      ],
      [
        '40006 recipient server unavailable',
        telnyxError(422, '40006', 'Recipient server unavailable'),
        'transient',
        false,
        '40006',
      ],
      ['40008 undeliverable', telnyxError(422, '40008', 'Undeliverable'), 'permanent', false, '40008'],
      ['40009 invalid body', telnyxError(422, '40009', 'Invalid message body'), 'permanent', false, '40009'],
      ['40011 too many messages', telnyxError(429, '40011', 'Too many messages'), 'rate_limited', false, '40011'],
      [
        '40012 invalid destination',
        telnyxError(422, '40012', 'Invalid destination number'),
        'permanent',
        true,
        '40012',
      ],
      ['40013 invalid source', telnyxError(422, '40013', 'Invalid source number'), 'permanent', false, '40013'],
      ['40300 STOP', telnyxError(422, '40300', 'Blocked due to STOP message'), 'permanent', true, '40300'],
      ['40305 invalid from', telnyxError(422, '40305', "Invalid 'from' address"), 'permanent', false, '40305'],
      ['40310 invalid to', telnyxError(422, '40310', "Invalid 'to' address"), 'permanent', true, '40310'],
      ['40311 invalid profile', telnyxError(422, '40311', 'Invalid messaging profile'), 'permanent', false, '40311'],
      ['unlisted code on a 503', telnyxError(503, '90001', 'Service unavailable'), 'transient', false, '90001'],
      ['unlisted code on a 422', telnyxError(422, '90002', 'Something else'), 'permanent', false, '90002'],
      [
        '429 without a body',
        { status: 429, text: '', headers: { 'Retry-After': '1' } },
        'rate_limited',
        false,
        undefined,
        1000,
      ],
      ['stall past OUTBOUND_TIMEOUT_MS', 'stall', 'transient', false, undefined],
    ];
    const { seen, expected } = await classifications(connector, fake, '+1555020', rows, smsMessage);
    expect(seen).toEqual(expected);
    expect(fake.requests).toHaveLength(rows.length);
  });

  it('end to end: the worker posts exactly what Telnyx expects (Bearer key, JSON body with the profile) and stores data.id', async () => {
    const id = await send('+15551234567', { body: 'Code {{code}}', vars: { code: '77' }, sms: { from: 'Acme' } });
    await app.t.worker.drainOnce();
    expect(fake.requests).toHaveLength(1);
    const [req] = fake.requests;
    expect([req.method, req.path]).toEqual(['POST', '/v2/messages']);
    expect(req.headers.authorization).toBe(`Bearer ${TELNYX_KEY}`);
    expect(req.headers['content-type']).toBe('application/json');
    expect(JSON.parse(req.raw)).toEqual({
      from: 'Acme',
      to: '+15551234567',
      text: 'Code 77',
      type: 'SMS',
      messaging_profile_id: TELNYX_PROFILE,
    });
    const row = await job(id);
    expect(row).toMatchObject({ status: 'sent', attempts: 1, provider: 'telnyx' });
    expect(row.provider_message_id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('end to end: a STOP fails the job with the code, a stall is retried, a 429 pauses the lane without using an attempt', async () => {
    const stop = await send('+15005550004');
    await app.t.worker.drainOnce();
    expect(await job(stop)).toMatchObject({ status: 'failed', attempts: 1, provider: 'telnyx' });
    expect((await job(stop)).error).toMatch(/^telnyx 40300: Blocked due to STOP message/);
    expect(
      await app.t.db.sql(`SELECT channel, address, reason, scope FROM suppressions WHERE project_id = $1`, [
        app.project.id,
      ]),
    ).toEqual([{ channel: 'sms', address: '+15005550004', reason: 'stop', scope: 'all' }]);

    const stalled = await send('+15005550777');
    await app.t.worker.drainOnce();
    expect(await job(stalled)).toMatchObject({ status: 'retry', attempts: 1 });
    expect((await job(stalled)).error).toMatch(/no answer within OUTBOUND_TIMEOUT_MS/);

    const limited = await send('+15005550429');
    await app.t.worker.drainOnce();
    expect(await job(limited)).toMatchObject({ status: 'pending', attempts: 0 });
    // The pause as written (Retry-After: 2), not whether it is still on: a loaded machine can
    // take longer than 2 s to drain and read.
    const [lane] = await app.t.db.sql(
      `SELECT pause_kind, paused_until - paused_at >= interval '2 seconds' AS paused FROM pacing_lanes WHERE lane_key = 'sms:telnyx'`,
    );
    expect(lane).toEqual({ pause_kind: 'rate_limited', paused: true });
  });

  it('an alphanumeric sender without a messaging profile fails before any call', async () => {
    const bare = new TelnyxSmsConnector({
      ...app.t.notifyd.config,
      sms: {
        ...app.t.notifyd.config.sms,
        telnyx: { ...app.t.notifyd.config.sms.telnyx, messagingProfileId: undefined },
      },
    });
    const [result] = await bare.send([smsMessage('+15551234567', { payload: { sms: { from: 'Acme' } } })]);
    expect(!result.ok && [result.error.kind, result.error.message]).toEqual([
      'permanent',
      expect.stringMatching(/TELNYX_MESSAGING_PROFILE_ID/),
    ]);
    expect(fake.requests).toHaveLength(0);
  });
});
