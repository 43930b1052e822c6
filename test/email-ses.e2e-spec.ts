import { simpleParser } from 'mailparser';
import { InstanceSesConnector } from '../src/connectors/email/ses/ses.connector.js';
import { SesFake, type SesScript } from './fakes/ses-fake.js';
import { type ErrorRow, outboundEmail, refusalOf, useEmailProviderApp } from './helpers/email-test-kit.js';
import { startTestApp } from './helpers/test-app.js';

/** Amazon SES v2, end to end: API → queue → worker → SigV4-signed calls to the SES fake. */
describe('email through Amazon SES v2', () => {
  const credentials = {
    accessKeyId: 'AKIDEXAMPLE',
    secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY',
    region: 'eu-west-1',
  };
  const fake = new SesFake(credentials);
  const { app, kit } = useEmailProviderApp('ses', fake, () => ({
    SES_REGION: 'eu-west-1',
    AWS_ACCESS_KEY_ID: credentials.accessKeyId,
    AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey,
    SES_BASE_URL: fake.url,
    SES_CONFIGURATION_SET: 'notifyd-events',
    PUBLIC_URL: 'https://notify.acme.example',
  }));

  it('sends one signed SendEmail with Simple content, headers, tags and the configuration set', async () => {
    const id = await kit.send({
      to: 'jane@customer.example',
      body_html: '<p>Hi</p>',
      cc: ['boss@customer.example'],
      reply_to: 'support@acme.example',
      email_headers: { 'X-Ref': 'abc' },
    });
    await app.t.worker.drainOnce();
    expect(await kit.job(id)).toMatchObject({ status: 'sent', provider: 'ses', provider_message_id: 'ses-000001' });
    const [request] = fake.requests;
    expect(request.path).toBe('/v2/email/outbound-emails');
    expect(request.headers.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/eu-west-1\/ses\/aws4_request, SignedHeaders=.*x-amz-date/,
    );
    expect(request.body).toEqual({
      FromEmailAddress: 'Acme <hello@acme.example>',
      Destination: { ToAddresses: ['jane@customer.example'], CcAddresses: ['boss@customer.example'] },
      ReplyToAddresses: ['support@acme.example'],
      Content: {
        Simple: {
          Subject: { Data: 'Hello', Charset: 'UTF-8' },
          Body: { Text: { Data: 'Plain body', Charset: 'UTF-8' }, Html: { Data: '<p>Hi</p>', Charset: 'UTF-8' } },
          Headers: [{ Name: 'X-Ref', Value: 'abc' }],
        },
      },
      EmailTags: [{ Name: 'notifyd_job_id', Value: id }],
      ConfigurationSetName: 'notifyd-events',
    });
  });

  it('sends an email with attachments as raw MIME built by nodemailer', async () => {
    const id = await kit.send({
      to: 'jane@customer.example',
      attachments: [
        { filename: 'a.txt', content: Buffer.from('attached').toString('base64'), content_type: 'text/plain' },
      ],
    });
    await app.t.worker.drainOnce();
    expect(await kit.job(id)).toMatchObject({ status: 'sent' });
    const mime = await simpleParser(Buffer.from(fake.requests[0].body.Content.Raw.Data, 'base64'));
    expect(mime.subject).toBe('Hello');
    expect(mime.messageId).toBe(`<${id}@acme.example>`);
    expect(mime.attachments[0].content.toString()).toBe('attached');
  });

  it('sends a batch as one bulk call with per-entry status: a rejected entry fails alone', async () => {
    fake.script = (to) =>
      to === 'rejected@customer.example'
        ? { entryStatus: 'MESSAGE_REJECTED', error: 'Email address is not verified.' }
        : 'accept';
    const ok1 = await kit.send({
      to: 'a@customer.example',
      subject: 'For {{name}}',
      vars: { name: 'A & <B>' },
      priority: 'bulk',
    });
    const bad = await kit.send({ to: 'rejected@customer.example', priority: 'bulk' });
    const ok2 = await kit.send({ to: 'c@customer.example', priority: 'bulk' });
    expect(await app.t.worker.drainOnce()).toBe(3);
    expect(fake.requests.map((r) => r.path)).toEqual(['/v2/email/outbound-bulk-emails']);
    const bulk = fake.requests[0].body;
    expect(bulk.DefaultContent.Template.TemplateContent).toEqual({ Subject: '{{{subject}}}', Text: '{{{text}}}' });
    const entryFor = (to: string) =>
      bulk.BulkEmailEntries.find(
        (e: { Destination: { ToAddresses: string[] } }) => e.Destination.ToAddresses[0] === to,
      );
    expect(
      JSON.parse(entryFor('a@customer.example').ReplacementEmailContent.ReplacementTemplate.ReplacementTemplateData),
    ).toEqual({ subject: 'For A & <B>', text: 'Plain body', html: '' });
    expect(entryFor('a@customer.example').ReplacementHeaders).toEqual([
      {
        Name: 'List-Unsubscribe',
        Value: expect.stringMatching(/^<https:\/\/notify\.acme\.example\/u\/u1\.[A-Za-z0-9_.-]+>$/),
      },
      { Name: 'List-Unsubscribe-Post', Value: 'List-Unsubscribe=One-Click' },
    ]);
    expect(await kit.job(ok1)).toMatchObject({ status: 'sent', provider: 'ses' });
    expect(await kit.job(ok2)).toMatchObject({ status: 'sent', provider: 'ses' });
    expect(await kit.job(bad)).toMatchObject({
      status: 'failed',
      error: 'SES bulk MESSAGE_REJECTED: Email address is not verified.',
    });
  });

  it('a wrong secret is refused by the signature check (403) and fails the job', async () => {
    const wrong = await startTestApp({
      database: app.t.db,
      env: {
        EMAIL_PROVIDER: 'ses',
        SES_REGION: 'eu-west-1',
        AWS_ACCESS_KEY_ID: credentials.accessKeyId,
        AWS_SECRET_ACCESS_KEY: 'not-the-secret',
        SES_BASE_URL: fake.url,
      },
    });
    try {
      const id = await kit.send({ to: 'jane@customer.example' });
      await wrong.worker.drainOnce();
      expect(await kit.job(id)).toMatchObject({
        status: 'failed',
        error: expect.stringMatching(/^SES 403 InvalidSignatureException/),
      });
    } finally {
      await wrong.notifyd.close();
    }
  });

  // Every row of SES's table in docs/CONNECTORS.md, single (HTTP exceptions) and bulk (entry statuses).
  const row = (label: string, answer: SesScript, rest: Omit<ErrorRow, 'label'> & { kind: string; bulk?: boolean }) => ({
    label,
    answer,
    ...rest,
  });
  const exceptionRow = (
    status: number,
    exception: string,
    message: string,
    outcome: Omit<ErrorRow, 'label' | 'error'> & { kind: string },
  ) =>
    row(
      `${status} ${exception}${/daily|rate/i.test(message) ? ` (${message})` : ''}`,
      { status, exception, message },
      { ...outcome, error: new RegExp(`SES ${status} ${exception}`) },
    );
  const entryRow = (status: string, outcome: Omit<ErrorRow, 'label' | 'error'> & { kind: string }) =>
    row(
      `bulk entry ${status}`,
      { entryStatus: status, error: `${status} for this entry` },
      { ...outcome, error: new RegExp(`SES bulk ${status}`), bulk: true },
    );
  const failed = { status: 'failed', attempts: 1, kind: 'permanent' } as const;
  const retried = { status: 'retry', attempts: 1, kind: 'transient' } as const;
  const rateLimited = { status: 'pending', attempts: 0, kind: 'rate_limited', pause: 'rate_limited' } as const;
  const quota = { status: 'pending', attempts: 0, kind: 'rate_limited', pause: 'quota_exhausted' } as const;
  const table = [
    exceptionRow(429, 'TooManyRequestsException', 'Too many requests.', rateLimited),
    exceptionRow(400, 'LimitExceededException', 'Maximum sending rate exceeded.', rateLimited),
    exceptionRow(400, 'LimitExceededException', 'Daily message quota exceeded.', quota),
    exceptionRow(400, 'SendingPausedException', 'Sending is paused for this account.', quota),
    exceptionRow(400, 'AccountSuspendedException', 'The account is suspended.', quota),
    exceptionRow(400, 'MessageRejected', 'Email address is not verified.', failed),
    exceptionRow(400, 'MailFromDomainNotVerifiedException', 'MAIL FROM domain not verified.', failed),
    exceptionRow(400, 'BadRequestException', 'Invalid parameter.', failed),
    exceptionRow(404, 'NotFoundException', 'Configuration set does not exist.', failed),
    exceptionRow(403, 'AccessDeniedException', 'Not authorized to perform ses:SendEmail.', failed),
    exceptionRow(500, 'InternalFailure', 'Internal failure.', retried),
    exceptionRow(503, 'ServiceUnavailable', 'Service unavailable.', retried),
    entryRow('MESSAGE_REJECTED', failed),
    entryRow('MAIL_FROM_DOMAIN_NOT_VERIFIED', failed),
    entryRow('CONFIGURATION_SET_DOES_NOT_EXIST', failed),
    entryRow('TEMPLATE_DOES_NOT_EXIST', failed),
    entryRow('INVALID_SENDING_POOL_NAME', failed),
    entryRow('INVALID_PARAMETER', failed),
    entryRow('ACCOUNT_THROTTLED', rateLimited),
    entryRow('ACCOUNT_DAILY_QUOTA_EXCEEDED', quota),
    entryRow('ACCOUNT_SENDING_PAUSED', quota),
    entryRow('ACCOUNT_SUSPENDED', quota),
    entryRow('CONFIGURATION_SET_SENDING_PAUSED', quota),
    entryRow('TRANSIENT_FAILURE', retried),
    entryRow('FAILED', retried),
    row('no answer within OUTBOUND_TIMEOUT_MS', 'stall', {
      status: 'retry',
      attempts: 1,
      error: /ses call failed: .*(timeout|aborted)/i,
      kind: 'transient',
    }),
  ];
  // A fresh address per row: a dead address is suppressed, and would not be sent to again.
  let addressNo = 0;
  it.each(table)('$label → job $status', async ({ answer, status, attempts, error, pause, kind, bulk }) => {
    fake.script = (to) => (to.startsWith('scripted') ? answer : 'accept');
    const id = await kit.send({ to: `scripted-${++addressNo}@customer.example` });
    // Entry statuses exist only in bulk calls: a second message makes the chunk a bulk call.
    const other = bulk ? await kit.send({ to: 'other@customer.example' }) : undefined;
    await app.t.worker.drainOnce();
    const job = await kit.job(id);
    expect({ status: job.status, attempts: job.attempts }).toEqual({ status, attempts });
    expect(job.error).toMatch(error);
    expect((await kit.pause())?.kind).toBe(pause);
    if (other && !pause) expect(await kit.job(other)).toMatchObject({ status: 'sent' });
    if (answer === 'stall') return;
    const connector = app.t.notifyd.app.get(InstanceSesConnector);
    const messages = [
      outboundEmail(`scripted-${++addressNo}@customer.example`),
      ...(bulk ? [outboundEmail('other@customer.example')] : []),
    ];
    const [result] = await connector.send(messages);
    expect(result.ok ? 'sent' : result.error.kind).toBe(kind);
    expect(result.ok ? false : result.error.deadRecipient).toBe(false);
    if (!bulk) expect((await refusalOf(connector, messages[0])).kind).toBe(kind);
  });
});
