import { InstanceSendgridConnector } from '../src/connectors/email/sendgrid/sendgrid.connector.js';
import { SendgridFake, type SendgridScript } from './fakes/sendgrid-fake.js';
import { type ErrorRow, outboundEmail, refusalOf, useEmailProviderApp } from './helpers/email-test-kit.js';

/** SendGrid v3, end to end: API → queue → worker → the SendGrid fake. */
describe('email through SendGrid v3', () => {
  const fake = new SendgridFake('SG.test-key');
  const { app, kit } = useEmailProviderApp('sendgrid', fake, () => ({
    SENDGRID_API_KEY: 'SG.test-key',
    SENDGRID_BASE_URL: fake.url,
  }));

  it('sends one email as a v3 mail/send request; the message id comes from X-Message-Id', async () => {
    const id = await kit.send({
      to: 'jane@customer.example',
      body_html: '<p>Hi</p>',
      cc: ['boss@customer.example'],
      reply_to: 'support@acme.example',
      email_headers: { 'X-Ref': 'abc' },
      tags: [{ name: 'category', value: 'receipt' }],
      attachments: [{ filename: 'a.txt', content: 'aGk=', content_type: 'text/plain' }],
    });
    await app.t.worker.drainOnce();
    expect(await kit.job(id)).toMatchObject({ status: 'sent', provider: 'sendgrid', provider_message_id: 'sg-000001' });
    const [request] = fake.requests;
    expect(request.headers.authorization).toBe('Bearer SG.test-key');
    expect(request.body).toEqual({
      personalizations: [
        {
          to: [{ email: 'jane@customer.example' }],
          cc: [{ email: 'boss@customer.example' }],
          custom_args: { category: 'receipt', notifyd_job_id: id },
        },
      ],
      from: { email: 'hello@acme.example', name: 'Acme' },
      reply_to: { email: 'support@acme.example' },
      subject: 'Hello',
      content: [
        { type: 'text/plain', value: 'Plain body' },
        { type: 'text/html', value: '<p>Hi</p>' },
      ],
      headers: { 'X-Ref': 'abc' },
      attachments: [{ content: 'aGk=', filename: 'a.txt', type: 'text/plain', disposition: 'attachment' }],
      categories: ['receipt'],
    });
  });

  // Every row of SendGrid's table in docs/CONNECTORS.md.
  // Epoch seconds, well ahead of the test's run (a reset in the past means "now").
  const reset = String(Math.floor(Date.now() / 1000) + 120);
  const row = (label: string, answer: SendgridScript, rest: Omit<ErrorRow, 'label'> & { kind: string }) => ({
    label,
    answer,
    ...rest,
  });
  const failed = (status: number, message: string) =>
    row(
      `${status} ${message}`,
      { status, errors: [{ message }] },
      { status: 'failed', attempts: 1, error: new RegExp(`SendGrid ${status}`), kind: 'permanent' },
    );
  const table = [
    row(
      '429 with X-RateLimit-Reset',
      {
        status: 429,
        errors: [{ message: 'too many requests' }],
        headers: { 'x-ratelimit-limit': '600', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset },
      },
      {
        status: 'pending',
        attempts: 0,
        error: /rate limited: SendGrid 429/,
        pause: 'rate_limited',
        kind: 'rate_limited',
      },
    ),
    row(
      '401 Maximum credits exceeded',
      { status: 401, errors: [{ message: 'Maximum credits exceeded' }] },
      {
        status: 'pending',
        attempts: 0,
        error: /quota exhausted: SendGrid 401/,
        pause: 'quota_exhausted',
        kind: 'rate_limited',
      },
    ),
    failed(400, 'The from address does not match a verified Sender Identity.'),
    failed(401, 'The provided authorization grant is invalid, expired, or revoked'),
    failed(403, 'access forbidden'),
    failed(404, 'Not found'),
    failed(405, 'Method not allowed'),
    failed(413, 'The JSON payload you have included in your request is too large.'),
    row(
      '500',
      { status: 500, errors: [{ message: 'internal error' }] },
      { status: 'retry', attempts: 1, error: /SendGrid 500/, kind: 'transient' },
    ),
    row(
      '503',
      { status: 503, errors: [{ message: 'service unavailable' }] },
      { status: 'retry', attempts: 1, error: /SendGrid 503/, kind: 'transient' },
    ),
    row('no answer within OUTBOUND_TIMEOUT_MS', 'stall', {
      status: 'retry',
      attempts: 1,
      error: /sendgrid call failed: .*(timeout|aborted)/i,
      kind: 'transient',
    }),
  ];
  // A fresh address per row: a dead address is suppressed, and would not be sent to again.
  let addressNo = 0;
  it.each(table)('$label → job $status', async ({ answer, status, attempts, error, pause, kind }) => {
    fake.script = (to) => (to.startsWith('scripted') ? answer : 'accept');
    const id = await kit.send({ to: `scripted-${++addressNo}@customer.example` });
    await app.t.worker.drainOnce();
    const job = await kit.job(id);
    expect({ status: job.status, attempts: job.attempts }).toEqual({ status, attempts });
    expect(job.error).toMatch(error);
    expect((await kit.pause())?.kind).toBe(pause);
    if (answer === 'stall') return;
    const refusal = await refusalOf(
      app.t.notifyd.app.get(InstanceSendgridConnector),
      outboundEmail(`scripted-${++addressNo}@customer.example`),
    );
    expect(refusal).toMatchObject({ kind, dead: false });
    if (pause === 'rate_limited') expect(refusal.retryAfterMs).toBeGreaterThan(0);
  });
});
