import { ResendFake, type ResendScript } from './fakes/resend-fake.js';
import { type ErrorRow, useEmailProviderApp } from './helpers/email-test-kit.js';

/** Resend, end to end: API → queue → worker → the Resend fake (single and batch API). */
describe('email through Resend', () => {
  const fake = new ResendFake('re_test_key');
  const { app, kit } = useEmailProviderApp('resend', fake, () => ({
    RESEND_API_KEY: 're_test_key',
    RESEND_BASE_URL: fake.url,
    PUBLIC_URL: 'https://notify.acme.example',
  }));

  it('sends one email with the documented fields, its job id as Idempotency-Key and tags', async () => {
    const id = await kit.send({
      to: 'jane@customer.example',
      body_html: '<p>Hi</p>',
      cc: ['boss@customer.example'],
      reply_to: 'support@acme.example',
      email_headers: { 'X-Entity-Ref-ID': 'abc' },
      tags: [{ name: 'category', value: 'newsletter' }],
      attachments: [
        { filename: 'a.txt', content: Buffer.from('hello').toString('base64'), content_type: 'text/plain' },
      ],
    });
    expect(await app.t.worker.drainOnce()).toBe(1);
    expect(await kit.job(id)).toMatchObject({ status: 'sent', provider: 'resend', provider_message_id: 're_000001' });
    expect(fake.requests).toHaveLength(1);
    const [request] = fake.requests;
    expect(request.path).toBe('/emails');
    expect(request.headers.authorization).toBe('Bearer re_test_key');
    expect(request.headers['idempotency-key']).toBe(id);
    expect(request.body).toEqual({
      from: 'Acme <hello@acme.example>',
      to: ['jane@customer.example'],
      subject: 'Hello',
      text: 'Plain body',
      // Marketing HTML also carries governance's open-tracking pixel.
      html: expect.stringMatching(/^<p>Hi<\/p>/),
      cc: ['boss@customer.example'],
      reply_to: ['support@acme.example'],
      headers: {
        'X-Entity-Ref-ID': 'abc',
        'List-Unsubscribe': expect.stringMatching(/^<https:\/\/notify\.acme\.example\/u\/u1\.[A-Za-z0-9_.-]+>$/),
        'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      },
      tags: [
        { name: 'category', value: 'newsletter' },
        { name: 'notifyd_job_id', value: id },
      ],
      attachments: [
        { filename: 'a.txt', content: Buffer.from('hello').toString('base64'), content_type: 'text/plain' },
      ],
    });
  });

  it('sends up to 100 emails in one batch call; attachments go one by one', async () => {
    const ids = [];
    for (let i = 0; i < 5; i++) ids.push(await kit.send({ to: `user${i}@customer.example` }));
    const withFile = await kit.send({
      to: 'file@customer.example',
      attachments: [{ filename: 'a.txt', content: 'aGk=' }],
    });
    expect(await app.t.worker.drainOnce()).toBe(6);
    const batch = fake.requests.filter((r) => r.path === '/emails/batch');
    const singles = fake.requests.filter((r) => r.path === '/emails');
    expect(batch).toHaveLength(1);
    expect(batch[0].body.map((e: { to: string[] }) => e.to[0]).sort()).toEqual([
      'user0@customer.example',
      'user1@customer.example',
      'user2@customer.example',
      'user3@customer.example',
      'user4@customer.example',
    ]);
    expect(batch[0].headers['idempotency-key']).toMatch(/^batch-[0-9a-f]{64}$/);
    expect(singles.map((r) => r.body.to[0])).toEqual(['file@customer.example']);
    for (const id of [...ids, withFile])
      expect(await kit.job(id)).toMatchObject({ status: 'sent', provider: 'resend' });
    const mids = await app.t.db.sql(`SELECT provider_message_id FROM jobs`);
    expect(new Set(mids.map((r) => r.provider_message_id as string)).size).toBe(6);
  });

  it('a batch refused whole with a 422 is retried item by item: only the bad address fails', async () => {
    fake.script = (to) =>
      to === 'bad@customer.example'
        ? { status: 422, name: 'validation_error', message: 'Invalid `to` field.' }
        : 'accept';
    const good1 = await kit.send({ to: 'good1@customer.example' });
    const bad = await kit.send({ to: 'bad@customer.example' });
    const good2 = await kit.send({ to: 'good2@customer.example' });
    await app.t.worker.drainOnce();
    expect(fake.requests.map((r) => r.path)).toEqual(['/emails/batch', '/emails', '/emails', '/emails']);
    expect(await kit.job(good1)).toMatchObject({ status: 'sent' });
    expect(await kit.job(good2)).toMatchObject({ status: 'sent' });
    expect(await kit.job(bad)).toMatchObject({
      status: 'failed',
      error: 'Resend 422 validation_error: Invalid `to` field.',
    });
  });

  // Every row of Resend's table in docs/CONNECTORS.md.
  const table: (ErrorRow & { answer: ResendScript })[] = [
    {
      label: '429 rate_limit_exceeded, Retry-After: 2',
      answer: {
        status: 429,
        name: 'rate_limit_exceeded',
        message: 'Too many requests.',
        headers: { 'retry-after': '2' },
      },
      status: 'pending',
      attempts: 0,
      error: /rate limited: Resend 429 rate_limit_exceeded/,
      pause: 'rate_limited',
    },
    // Retry-After: 0 still rests the lane a moment (the dispatcher's 500 ms floor), instead of re-sending at once in a loop.
    {
      label: '429 rate_limit_exceeded, Retry-After: 0',
      answer: {
        status: 429,
        name: 'rate_limit_exceeded',
        message: 'Too many requests.',
        headers: { 'retry-after': '0' },
      },
      status: 'pending',
      attempts: 0,
      error: /rate limited: Resend 429 rate_limit_exceeded/,
      pause: 'rate_limited',
    },
    {
      label: '429 daily_quota_exceeded',
      answer: {
        status: 429,
        name: 'daily_quota_exceeded',
        message: 'You have reached your daily email sending quota.',
      },
      status: 'pending',
      attempts: 0,
      error: /quota exhausted: Resend 429 daily_quota_exceeded/,
      pause: 'quota_exhausted',
    },
    {
      label: '429 monthly_quota_exceeded',
      answer: {
        status: 429,
        name: 'monthly_quota_exceeded',
        message: 'You have reached your monthly email sending quota.',
      },
      status: 'pending',
      attempts: 0,
      error: /quota exhausted: Resend 429 monthly_quota_exceeded/,
      pause: 'quota_exhausted',
    },
    {
      label: '409 concurrent_idempotent_requests',
      answer: {
        status: 409,
        name: 'concurrent_idempotent_requests',
        message: 'Same idempotency key used while original request is still in progress.',
      },
      status: 'retry',
      attempts: 1,
      error: /Resend 409 concurrent_idempotent_requests/,
    },
    {
      label: '409 invalid_idempotent_request',
      answer: {
        status: 409,
        name: 'invalid_idempotent_request',
        message: 'Same idempotency key used with a different request payload.',
      },
      status: 'failed',
      attempts: 1,
      error: /Resend 409 invalid_idempotent_request/,
    },
    {
      label: '400 validation_error',
      answer: { status: 400, name: 'validation_error', message: 'Invalid idempotency key.' },
      status: 'failed',
      attempts: 1,
      error: /Resend 400 validation_error/,
    },
    {
      label: '401 missing_api_key',
      answer: { status: 401, name: 'missing_api_key', message: 'Missing API key.' },
      status: 'failed',
      attempts: 1,
      error: /Resend 401 missing_api_key/,
    },
    {
      label: '403 invalid_api_key',
      answer: { status: 403, name: 'invalid_api_key', message: 'API key is invalid.' },
      status: 'failed',
      attempts: 1,
      error: /Resend 403 invalid_api_key/,
    },
    {
      label: '403 validation_error (unverified domain)',
      answer: { status: 403, name: 'validation_error', message: 'The acme.example domain is not verified.' },
      status: 'failed',
      attempts: 1,
      error: /Resend 403 validation_error/,
    },
    {
      label: '404 not_found',
      answer: { status: 404, name: 'not_found', message: 'The requested endpoint does not exist.' },
      status: 'failed',
      attempts: 1,
      error: /Resend 404 not_found/,
    },
    {
      label: '405 method_not_allowed',
      answer: { status: 405, name: 'method_not_allowed', message: 'Method is not allowed.' },
      status: 'failed',
      attempts: 1,
      error: /Resend 405 method_not_allowed/,
    },
    {
      label: '422 invalid_from_address',
      answer: { status: 422, name: 'invalid_from_address', message: 'Invalid `from` field.' },
      status: 'failed',
      attempts: 1,
      error: /Resend 422 invalid_from_address/,
    },
    {
      label: '422 invalid_attachment',
      answer: {
        status: 422,
        name: 'invalid_attachment',
        message: 'Attachment must have either a `content` or `path`.',
      },
      status: 'failed',
      attempts: 1,
      error: /Resend 422 invalid_attachment/,
    },
    {
      label: '451 security_error',
      answer: { status: 451, name: 'security_error', message: 'We may have found a security issue with the request.' },
      status: 'failed',
      attempts: 1,
      error: /Resend 451 security_error/,
    },
    {
      label: '500 application_error',
      answer: { status: 500, name: 'application_error', message: 'An unexpected error occurred.' },
      status: 'retry',
      attempts: 1,
      error: /Resend 500 application_error/,
    },
    {
      label: '500 internal_server_error',
      answer: { status: 500, name: 'internal_server_error', message: 'An unexpected error occurred.' },
      status: 'retry',
      attempts: 1,
      error: /Resend 500 internal_server_error/,
    },
    {
      label: 'no answer within OUTBOUND_TIMEOUT_MS',
      answer: 'stall',
      status: 'retry',
      attempts: 1,
      error: /resend call failed: .*(timeout|aborted)/i,
    },
  ];
  // A fresh address per row: a dead address is suppressed, and would not be sent to again.
  let addressNo = 0;
  it.each(table)('$label → job $status', async ({ answer, status, attempts, error, pause }) => {
    fake.script = (to) => (to.startsWith('scripted') ? answer : 'accept');
    const id = await kit.send({ to: `scripted-${++addressNo}@customer.example` });
    await app.t.worker.drainOnce();
    const row = await kit.job(id);
    expect({ status: row.status, attempts: row.attempts }).toEqual({ status, attempts });
    expect(row.error).toMatch(error);
    expect((await kit.pause())?.kind).toBe(pause);
    if (pause === 'rate_limited') expect(new Date(row.run_at).getTime() - Date.now()).toBeLessThanOrEqual(2_100);
    if (pause === 'quota_exhausted') expect(new Date(row.run_at).getTime()).toBeGreaterThan(Date.now() + 10_000);
  });
});
