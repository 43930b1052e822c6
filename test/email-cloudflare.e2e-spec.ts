import { randomBytes } from 'node:crypto';
import { InstanceCloudflareEmailConnector } from '../src/connectors/email/cloudflare/cloudflare.connector.js';
import { CloudflareEmailFake, type CloudflareScript } from './fakes/cloudflare-email-fake.js';
import { type ErrorRow, outboundEmail, refusalOf, useEmailProviderApp } from './helpers/email-test-kit.js';
import { ADMIN_KEY } from './helpers/test-app.js';

const ACCOUNT = '0123456789abcdef0123456789abcdef';

/** Cloudflare Email Service, end to end: API → queue → worker → the Cloudflare fake. */
describe('email through Cloudflare Email Service', () => {
  const fake = new CloudflareEmailFake(ACCOUNT, 'cf-instance-token');
  const { app, kit } = useEmailProviderApp('cloudflare', fake, () => ({
    CLOUDFLARE_ACCOUNT_ID: ACCOUNT,
    CLOUDFLARE_EMAIL_API_TOKEN: 'cf-instance-token',
    CLOUDFLARE_BASE_URL: fake.url,
    PUBLIC_URL: 'https://notify.acme.example',
    NOTIFYD_SECRET_KEY: randomBytes(32).toString('base64'),
  }));

  it('sends one email to the account’s send endpoint with the API token; the message id is Cloudflare’s', async () => {
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
      provider: 'cloudflare',
      attempts: 1,
      provider_message_id: 'cf-000001',
    });
    const [request] = fake.requests;
    expect(request.path).toBe(`/accounts/${ACCOUNT}/email/sending/send`);
    expect(request.headers.authorization).toBe('Bearer cf-instance-token');
    expect(request.body).toEqual({
      from: { address: 'hello@acme.example', name: 'Acme' },
      to: 'jane@customer.example',
      cc: ['boss@customer.example'],
      reply_to: 'support@acme.example',
      subject: 'Hello',
      text: 'Plain body',
      html: '<p>Hi</p>',
      headers: { 'X-Ref': 'abc' },
      attachments: [{ content: 'aGk=', filename: 'a.txt', type: 'text/plain', disposition: 'attachment' }],
    });
  });

  it('marketing email carries the one-click unsubscribe headers; a queued recipient counts as sent', async () => {
    fake.script = () => 'queue';
    const id = await kit.send({ to: 'news@customer.example', priority: 'bulk' });
    await app.t.worker.drainOnce();
    expect(await kit.job(id)).toMatchObject({ status: 'sent', provider: 'cloudflare' });
    expect(fake.requests[0].body.headers).toEqual({
      'List-Unsubscribe': expect.stringMatching(/^<https:\/\/notify\.acme\.example\/u\/u1\.[A-Za-z0-9_.-]+>$/),
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    });
  });

  it('sends a project’s email through its own Cloudflare account (per-project provider)', async () => {
    const project = await app.t.createProject();
    const put = (settings: Record<string, string>) =>
      app.t.http
        .put(`/v1/admin/projects/${project.id}/providers/email`)
        .set('X-Api-Key', ADMIN_KEY)
        .send({ provider: 'cloudflare', settings });
    const bad = await put({ account_id: 'not-an-account', api_token: 'cf-project-token' });
    expect({ status: bad.status, message: bad.body.message }).toEqual({
      status: 422,
      message: expect.stringMatching(/settings\.account_id must be a Cloudflare account id/),
    });
    const other = 'fedcba9876543210fedcba9876543210';
    const ok = await put({ account_id: other, api_token: 'cf-project-token' });
    expect(ok.status).toBe(200);
    expect(ok.body.settings).toEqual({ account_id: other, api_token: '…oken' });
    const res = await app.t.http
      .post('/v1/send')
      .set('X-Api-Key', project.key)
      .send({ channels: ['email'], to: 'x@customer.example', subject: 'S', body: 'B' });
    await app.t.worker.drainOnce();
    // The fake is the instance's account: the project's account and token reach it (and are refused there), which shows what went out.
    expect(fake.requests.map((r) => [r.path, r.headers.authorization])).toEqual([
      [`/accounts/${other}/email/sending/send`, 'Bearer cf-project-token'],
    ]);
    expect(await kit.job(res.body.job_ids[0])).toMatchObject({
      status: 'failed',
      provider: 'cloudflare',
      error: 'Cloudflare 403 [10000]: Authentication error',
    });
  });

  it('refuses a message over Cloudflare’s limits (50 recipients, 5 MiB) without calling it; one at the limit goes', async () => {
    const connector = app.t.notifyd.app.get(InstanceCloudflareEmailConnector);
    const cc = (n: number) => Array.from({ length: n }, (_, i) => `cc${i}@customer.example`);
    expect(
      await refusalOf(connector, outboundEmail('jane@customer.example', { payload: { cc: cc(50) } })),
    ).toMatchObject({ kind: 'permanent', dead: false });
    const huge = [
      { filename: 'big.bin', content: 'A'.repeat(5 * 1024 * 1024), content_type: 'application/octet-stream' },
    ];
    expect(
      await refusalOf(connector, outboundEmail('jane@customer.example', { payload: { attachments: huge } })),
    ).toMatchObject({ kind: 'permanent', dead: false });
    expect(fake.requests).toHaveLength(0);
    const [atLimit] = await connector.send([outboundEmail('jane@customer.example', { payload: { cc: cc(49) } })]);
    expect(atLimit).toMatchObject({ ok: true });
    expect(fake.requests[0].body.cc).toHaveLength(49);
  });

  // Every row of Cloudflare's table in docs/CONNECTORS.md: through the worker (the job's fate) and asked directly (kind, dead).
  const row = (label: string, answer: CloudflareScript, rest: Omit<ErrorRow, 'label'> & { kind: string }) => ({
    label,
    answer,
    ...rest,
  });
  const table = [
    row(
      '429 (code 10004) with Retry-After',
      { status: 429, errors: [{ code: 10004, message: 'Rate limited' }], headers: { 'retry-after': '9' } },
      {
        status: 'pending',
        attempts: 0,
        error: /rate limited: Cloudflare 429 \[10004\]/,
        pause: 'rate_limited',
        kind: 'rate_limited',
      },
    ),
    row(
      '400 bad request',
      { status: 400, errors: [{ code: 10001, message: 'Invalid recipient address' }] },
      {
        status: 'failed',
        attempts: 1,
        error: /^Cloudflare 400 \[10001\]: Invalid recipient address$/,
        kind: 'permanent',
      },
    ),
    row(
      '403 sender not verified',
      { status: 403, errors: [{ code: 1000, message: 'Sender domain not verified' }] },
      {
        status: 'failed',
        attempts: 1,
        error: /^Cloudflare 403 \[1000\]: Sender domain not verified$/,
        kind: 'permanent',
      },
    ),
    row(
      '200 with success: false',
      { status: 200, errors: [{ code: 1000, message: 'Sender domain not verified' }] },
      {
        status: 'failed',
        attempts: 1,
        error: /^Cloudflare 200 \[1000\]: Sender domain not verified$/,
        kind: 'permanent',
      },
    ),
    row('200 with the recipient in permanent_bounces', 'bounce', {
      status: 'bounced',
      attempts: 1,
      error: /^Cloudflare permanent bounce/,
      kind: 'permanent',
      dead: true,
    }),
    row(
      '500',
      { status: 500, errors: [{ code: 10002, message: 'Internal error' }] },
      { status: 'retry', attempts: 1, error: /^Cloudflare 500 \[10002\]/, kind: 'transient' },
    ),
    row(
      '503',
      { status: 503, errors: [{ code: 10043, message: 'Service unavailable' }] },
      { status: 'retry', attempts: 1, error: /^Cloudflare 503/, kind: 'transient' },
    ),
    row('no answer within OUTBOUND_TIMEOUT_MS', 'stall', {
      status: 'retry',
      attempts: 1,
      error: /cloudflare call failed: .*(timeout|aborted)/i,
      kind: 'transient',
    }),
  ];
  // A fresh address per row: a dead address is suppressed, and would not be sent to again.
  let addressNo = 0;
  it.each(table)('$label → job $status', async ({ answer, status, attempts, error, pause, kind, dead }) => {
    fake.script = (to) => (to.startsWith('scripted') ? answer : 'accept');
    const to = `scripted-${++addressNo}@customer.example`;
    const id = await kit.send({ to });
    await app.t.worker.drainOnce();
    const job = await kit.job(id);
    expect({ status: job.status, attempts: job.attempts }).toEqual({ status, attempts });
    expect(job.error).toMatch(error);
    expect((await kit.pause())?.kind).toBe(pause);
    // Cloudflare's immediate bounce is a dead address: it becomes a bounce suppression (0.x created none).
    const suppressions = await app.t.db.sql(
      `SELECT reason FROM suppressions WHERE channel = 'email' AND address = $1 AND released_at IS NULL`,
      [to],
    );
    expect(suppressions.map((r) => r.reason)).toEqual(dead ? ['bounce'] : []);
    if (answer === 'stall') return;
    const refusal = await refusalOf(
      app.t.notifyd.app.get(InstanceCloudflareEmailConnector),
      outboundEmail(`scripted-${++addressNo}@customer.example`),
    );
    expect(refusal).toMatchObject({ kind, dead: !!dead });
    if (pause === 'rate_limited') expect(refusal.retryAfterMs).toBe(9000);
  });
});
