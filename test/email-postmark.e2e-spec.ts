import { InstancePostmarkConnector } from '../src/connectors/email/postmark/postmark.connector.js';
import { PostmarkFake, type PostmarkScript } from './fakes/postmark-fake.js';
import { type ErrorRow, outboundEmail, refusalOf, useEmailProviderApp } from './helpers/email-test-kit.js';

/** Postmark, end to end: API → queue → worker → the Postmark fake (single and batch API). */
describe('email through Postmark', () => {
  const fake = new PostmarkFake('pm-server-token');
  const { app, kit } = useEmailProviderApp('postmark', fake, () => ({
    POSTMARK_SERVER_TOKEN: 'pm-server-token',
    POSTMARK_BASE_URL: fake.url,
    POSTMARK_BROADCAST_STREAM: 'broadcast',
    EMAIL_FROM_NAME: 'Acme, Inc.',
    PUBLIC_URL: 'https://notify.acme.example',
    WORKER_BATCH_SIZE: '600',
  }));

  it('sends one email in Postmark’s shape with the server token', async () => {
    const id = await kit.send({
      to: 'jane@customer.example',
      body_html: '<p>Hi</p>',
      cc: ['boss@customer.example', 'it@customer.example'],
      reply_to: 'support@acme.example',
      email_headers: { 'X-Entity-Ref-ID': 'abc' },
      tags: [{ name: 'category', value: 'receipt' }],
      attachments: [{ filename: 'a.txt', content: 'aGk=', content_type: 'text/plain' }],
    });
    await app.t.worker.drainOnce();
    expect(await kit.job(id)).toMatchObject({ status: 'sent', provider: 'postmark', provider_message_id: 'pm-000001' });
    const [request] = fake.requests;
    expect(request.path).toBe('/email');
    expect(request.headers['x-postmark-server-token']).toBe('pm-server-token');
    expect(request.body).toEqual({
      From: '"Acme, Inc." <hello@acme.example>',
      To: 'jane@customer.example',
      Cc: 'boss@customer.example, it@customer.example',
      ReplyTo: 'support@acme.example',
      Subject: 'Hello',
      TextBody: 'Plain body',
      HtmlBody: '<p>Hi</p>',
      Headers: [{ Name: 'X-Entity-Ref-ID', Value: 'abc' }],
      Attachments: [{ Name: 'a.txt', Content: 'aGk=', ContentType: 'text/plain' }],
      Tag: 'receipt',
      Metadata: { category: 'receipt', notifyd_job_id: id },
      MessageStream: 'outbound',
    });
  });

  it('a batch of 10 with 2 bad addresses fails only those 2, in one call; marketing uses the broadcast stream', async () => {
    fake.script = (to) =>
      to === 'gone@customer.example'
        ? { errorCode: 406, message: 'You tried to send to recipient(s) that have been marked as inactive.' }
        : to === 'bad@customer.example'
          ? { errorCode: 300, message: "Invalid 'To' address: 'bad@customer.example'." }
          : 'accept';
    const ids: Record<string, string> = {};
    for (let i = 0; i < 8; i++) ids[`ok${i}`] = await kit.send({ to: `ok${i}@customer.example`, priority: 'bulk' });
    ids.gone = await kit.send({ to: 'gone@customer.example', priority: 'bulk' });
    ids.bad = await kit.send({ to: 'bad@customer.example', priority: 'bulk' });
    expect(await app.t.worker.drainOnce()).toBe(10);
    expect(fake.requests.map((r) => r.path)).toEqual(['/email/batch']);
    expect(fake.messages).toHaveLength(10);
    expect(new Set(fake.messages.map((m) => m.MessageStream))).toEqual(new Set(['broadcast']));
    expect(fake.messages[0].Headers).toEqual([
      {
        Name: 'List-Unsubscribe',
        Value: expect.stringMatching(/^<https:\/\/notify\.acme\.example\/u\/u1\.[A-Za-z0-9_.-]+>$/),
      },
      { Name: 'List-Unsubscribe-Post', Value: 'List-Unsubscribe=One-Click' },
    ]);
    for (let i = 0; i < 8; i++)
      expect(await kit.job(ids[`ok${i}`])).toMatchObject({ status: 'sent', provider: 'postmark' });
    // A hard bounce in the answer: the job ends bounced (job.bounced), as Postmark's bounce webhook would end it.
    expect(await kit.job(ids.gone)).toMatchObject({
      status: 'bounced',
      error: 'Postmark ErrorCode 406: You tried to send to recipient(s) that have been marked as inactive.',
    });
    expect(await kit.job(ids.bad)).toMatchObject({
      status: 'failed',
      error: "Postmark ErrorCode 300: Invalid 'To' address: 'bad@customer.example'.",
    });
  });

  // Every row of Postmark's table in docs/CONNECTORS.md: through the worker (the job's fate) and asked directly (kind, dead).
  const row = (label: string, answer: PostmarkScript, rest: Omit<ErrorRow, 'label'> & { kind: string }) => ({
    label,
    answer,
    ...rest,
  });
  const failed = (code: number, message: string, dead = false) =>
    row(
      `ErrorCode ${code}`,
      { errorCode: code, message },
      {
        status: dead ? 'bounced' : 'failed',
        attempts: 1,
        error: new RegExp(`Postmark ErrorCode ${code}`),
        kind: 'permanent',
        dead,
      },
    );
  const table = [
    failed(10, 'Bad or missing API token.'),
    failed(300, "Invalid 'To' address."),
    failed(400, 'Sender signature not found.'),
    failed(401, 'Sender signature not confirmed.'),
    failed(402, 'Invalid JSON.'),
    failed(403, 'Incompatible JSON.'),
    failed(406, 'Inactive recipient.', true),
    failed(409, 'JSON required.'),
    failed(411, 'Forbidden attachment type.'),
    failed(412, 'Account pending approval.'),
    failed(413, 'Not allowed to send.'),
    failed(1235, 'The message stream for the provided MessageStream was not found.'),
    row(
      'ErrorCode 405 (out of credits)',
      { errorCode: 405, message: 'Not allowed to send: you have run out of credits.' },
      {
        status: 'pending',
        attempts: 0,
        error: /quota exhausted: Postmark ErrorCode 405/,
        pause: 'quota_exhausted',
        kind: 'rate_limited',
      },
    ),
    row(
      'ErrorCode 100 (maintenance)',
      { errorCode: 100, message: 'Maintenance.' },
      { status: 'retry', attempts: 1, error: /Postmark ErrorCode 100/, kind: 'transient' },
    ),
    row(
      'HTTP 429',
      { http: 429, message: 'Rate limit exceeded.', headers: { 'retry-after': '2' } },
      {
        status: 'pending',
        attempts: 0,
        error: /rate limited: Postmark 429/,
        pause: 'rate_limited',
        kind: 'rate_limited',
      },
    ),
    row(
      'HTTP 500',
      { http: 500, message: 'Internal server error.' },
      { status: 'retry', attempts: 1, error: /Postmark 500/, kind: 'transient' },
    ),
    row(
      'HTTP 503',
      { http: 503, message: 'Service unavailable.' },
      { status: 'retry', attempts: 1, error: /Postmark 503/, kind: 'transient' },
    ),
    row('no answer within OUTBOUND_TIMEOUT_MS', 'stall', {
      status: 'retry',
      attempts: 1,
      error: /postmark call failed: .*(timeout|aborted)/i,
      kind: 'transient',
    }),
  ];
  // A fresh address per row: a dead address is suppressed, and would not be sent to again.
  let addressNo = 0;
  it.each(table)('$label → job $status', async ({ answer, status, attempts, error, pause, kind, dead }) => {
    fake.script = (to) => (to.startsWith('scripted') ? answer : 'accept');
    const id = await kit.send({ to: `scripted-${++addressNo}@customer.example` });
    await app.t.worker.drainOnce();
    const job = await kit.job(id);
    expect({ status: job.status, attempts: job.attempts }).toEqual({ status, attempts });
    expect(job.error).toMatch(error);
    expect((await kit.pause())?.kind).toBe(pause);
    if (answer === 'stall') return; // a stall is the dispatcher's timeout, not the connector's answer
    const refusal = await refusalOf(
      app.t.notifyd.app.get(InstancePostmarkConnector),
      outboundEmail(`scripted-${++addressNo}@customer.example`),
    );
    expect(refusal.kind).toBe(kind);
    expect(refusal.dead).toBe(!!dead);
  });
});
