import { randomBytes } from 'node:crypto';
import { InstanceAgentmailConnector } from '../src/connectors/email/agentmail/agentmail.connector.js';
import { AgentmailFake, type AgentmailScript } from './fakes/agentmail-fake.js';
import { type ErrorRow, outboundEmail, refusalOf, useEmailProviderApp } from './helpers/email-test-kit.js';
import { ADMIN_KEY } from './helpers/test-app.js';

/** AgentMail, end to end: API → queue → worker → the AgentMail fake. */
describe('email through AgentMail', () => {
  const fake = new AgentmailFake('am_instance_key', ['hello@acme.example', 'agent@other.example']);
  const { app, kit } = useEmailProviderApp('agentmail', fake, () => ({
    AGENTMAIL_API_KEY: 'am_instance_key',
    AGENTMAIL_BASE_URL: fake.url,
    NOTIFYD_SECRET_KEY: randomBytes(32).toString('base64'),
  }));

  it('sends from the EMAIL_FROM inbox with the bearer key; the message id is AgentMail’s', async () => {
    const id = await kit.send({
      to: 'jane@customer.example',
      body_html: '<p>Hi</p>',
      cc: ['boss@customer.example'],
      reply_to: 'support@acme.example',
      email_headers: { 'X-Ref': 'abc' },
      attachments: [{ filename: 'a.txt', content: 'aGk=', content_type: 'text/plain' }],
    });
    await app.t.worker.drainOnce();
    expect(await kit.job(id)).toMatchObject({
      status: 'sent',
      provider: 'agentmail',
      attempts: 1,
      provider_message_id: '<am-000001@agentmail.to>',
    });
    const [request] = fake.requests;
    expect(request.path).toBe('/v0/inboxes/hello%40acme.example/messages/send');
    expect(request.headers.authorization).toBe('Bearer am_instance_key');
    expect(request.body).toEqual({
      to: ['jane@customer.example'],
      cc: ['boss@customer.example'],
      reply_to: 'support@acme.example',
      subject: 'Hello',
      text: 'Plain body',
      html: '<p>Hi</p>',
      headers: { 'X-Ref': 'abc' },
      attachments: [{ filename: 'a.txt', content: 'aGk=', content_type: 'text/plain' }],
    });
  });

  it('sends a project’s email from its own inbox with its own key (per-project provider)', async () => {
    const project = await app.t.createProject();
    // The base URL stays the operator's: the fake stands for AgentMail, where the project's key is one more organisation's.
    fake.apiKeys.push('am_project_key_0123');
    const put = await app.t.http
      .put(`/v1/admin/projects/${project.id}/providers/email`)
      .set('X-Api-Key', ADMIN_KEY)
      .send({ provider: 'agentmail', settings: { api_key: 'am_project_key_0123' } });
    expect(put.status).toBe(200);
    expect(put.body.settings).toEqual({ api_key: '…0123' });
    const bad = await app.t.http
      .put(`/v1/admin/projects/${project.id}/providers/email`)
      .set('X-Api-Key', ADMIN_KEY)
      .send({ provider: 'agentmail', settings: {} });
    expect({ status: bad.status, message: bad.body.message }).toEqual({
      status: 422,
      message: expect.stringMatching(/agentmail needs settings\.api_key/),
    });
    expect(
      (
        await app.t.http
          .patch(`/v1/admin/projects/${project.id}`)
          .set('X-Api-Key', ADMIN_KEY)
          .send({ from_email: 'agent@other.example' })
      ).status,
    ).toBe(200);
    const res = await app.t.http
      .post('/v1/send')
      .set('X-Api-Key', project.key)
      .send({ channels: ['email'], to: 'x@customer.example', subject: 'S', body: 'B' });
    expect(res.status).toBe(200);
    await app.t.worker.drainOnce();
    expect(await kit.job(res.body.job_ids[0])).toMatchObject({
      status: 'sent',
      provider: 'agentmail',
      provider_message_id: expect.stringMatching(/^<am-\d+@agentmail\.to>$/),
    });
    expect(fake.requests.map((r) => [fake.inboxOf(r), r.headers.authorization])).toEqual([
      ['agent@other.example', 'Bearer am_project_key_0123'],
    ]);
    fake.apiKeys.pop();
  });

  // Every row of AgentMail's table in docs/CONNECTORS.md: through the worker (the job's fate) and asked directly (kind, dead).
  const row = (label: string, answer: AgentmailScript, rest: Omit<ErrorRow, 'label'> & { kind: string }) => ({
    label,
    answer,
    ...rest,
  });
  const table = [
    row(
      '429 with Retry-After',
      { status: 429, name: 'TooManyRequestsError', message: 'Rate limit exceeded', headers: { 'retry-after': '7' } },
      {
        status: 'pending',
        attempts: 0,
        error: /rate limited: AgentMail 429/,
        pause: 'rate_limited',
        kind: 'rate_limited',
      },
    ),
    row(
      '400 ValidationError',
      { status: 400, name: 'ValidationError', message: 'to: invalid email address' },
      {
        status: 'failed',
        attempts: 1,
        error: /^AgentMail 400 ValidationError: to: invalid email address/,
        kind: 'permanent',
      },
    ),
    row(
      '403 MessageRejectedError (suppressed recipient)',
      { status: 403, name: 'MessageRejectedError', message: 'Recipient address is suppressed' },
      { status: 'bounced', attempts: 1, error: /^AgentMail 403 MessageRejectedError/, kind: 'permanent', dead: true },
    ),
    row(
      '403 MessageRejectedError (other)',
      { status: 403, name: 'MessageRejectedError', message: 'Message rejected' },
      {
        status: 'failed',
        attempts: 1,
        error: /^AgentMail 403 MessageRejectedError: Message rejected/,
        kind: 'permanent',
      },
    ),
    row(
      '404 NotFoundError',
      { status: 404, name: 'NotFoundError', message: 'Inbox not found' },
      { status: 'failed', attempts: 1, error: /^AgentMail 404 NotFoundError/, kind: 'permanent' },
    ),
    row(
      '500',
      { status: 500, name: 'InternalServerError', message: 'Internal server error' },
      { status: 'retry', attempts: 1, error: /^AgentMail 500/, kind: 'transient' },
    ),
    row(
      '503',
      { status: 503, name: 'ServiceUnavailableError', message: 'Service unavailable' },
      { status: 'retry', attempts: 1, error: /^AgentMail 503/, kind: 'transient' },
    ),
    row('no answer within OUTBOUND_TIMEOUT_MS', 'stall', {
      status: 'retry',
      attempts: 1,
      error: /agentmail call failed: .*(timeout|aborted)/i,
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
    if (answer === 'stall') return;
    const refusal = await refusalOf(
      app.t.notifyd.app.get(InstanceAgentmailConnector),
      outboundEmail(`scripted-${++addressNo}@customer.example`),
    );
    expect(refusal).toMatchObject({ kind, dead: !!dead });
    if (pause === 'rate_limited') expect(refusal.retryAfterMs).toBe(7000);
  });

  it('a suppressed recipient becomes a bounce suppression, so the next email to it is not sent', async () => {
    fake.script = () => ({
      status: 403,
      name: 'MessageRejectedError',
      message: 'Recipient has bounced and is suppressed',
    });
    const first = await kit.send({ to: 'gone@customer.example' });
    await app.t.worker.drainOnce();
    expect(await kit.job(first)).toMatchObject({ status: 'bounced' });
    const suppressions = await app.t.db.sql(
      `SELECT reason FROM suppressions WHERE channel = 'email' AND address = $1 AND released_at IS NULL`,
      ['gone@customer.example'],
    );
    expect(suppressions.map((r) => r.reason)).toEqual(['bounce']);
    fake.reset();
    const again = await app.t.http
      .post('/v1/send')
      .set('X-Api-Key', app.project.key)
      .send({ channels: ['email'], to: 'gone@customer.example', subject: 'S', body: 'B' });
    expect(again.body.job_ids ?? []).toHaveLength(0);
    await app.t.worker.drainOnce();
    expect(fake.requests).toHaveLength(0);
  });
});
