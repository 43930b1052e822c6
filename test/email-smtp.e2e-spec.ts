import { generateKeyPairSync } from 'node:crypto';
import { PacingService } from '../src/pacing/pacing.service.js';
import { SmtpSink } from './fakes/smtp-sink.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';
import { createTestDatabase } from './helpers/test-database.js';

/** Email over SMTP, end to end: API → queue → worker → nodemailer → a real SMTP server. */
describe('email over SMTP (nodemailer → smtp-server)', () => {
  const sink = new SmtpSink({ user: 'relay-user', pass: 'relay-pass' });
  let t: TestApp;
  let project: { id: string; key: string };
  let port: number;

  beforeAll(async () => {
    port = await sink.start();
    t = await startTestApp({
      env: {
        EMAIL_PROVIDER: 'smtp',
        SMTP_HOST: '127.0.0.1',
        SMTP_PORT: String(port),
        SMTP_SECURITY: 'none',
        SMTP_USERNAME: 'relay-user',
        SMTP_PASSWORD: 'relay-pass',
        // 3 s: short enough for the stall row, long enough for a cold first session on a loaded CI machine.
        SMTP_TIMEOUT_MS: '3000',
        EMAIL_FROM: 'notifications@acme.example',
        EMAIL_FROM_NAME: 'Acme Notifications',
        PUBLIC_URL: 'https://notify.acme.example/',
      },
    });
    project = await t.createProject();
  });
  afterAll(async () => {
    await t.close();
    await sink.stop();
  });
  beforeEach(async () => {
    sink.reset();
    await t.notifyd.app.get(PacingService).resume({ channel: 'email', provider: 'smtp' });
    await t.db.sql(`DELETE FROM jobs`);
  });

  const send = async (body: Record<string, unknown>) => {
    const res = await t.http
      .post('/v1/send')
      .set('X-Api-Key', project.key)
      .send({ channels: ['email'], subject: 'Hello', body: 'Plain body', ...body });
    expect(res.status).toBe(200);
    return res.body.job_ids[0] as string;
  };
  const job = async (id: string) => (await t.db.sql(`SELECT * FROM jobs WHERE id = $1`, [id]))[0];

  it('delivers an RFC 5322 message with every option the API takes', async () => {
    const pdf = Buffer.from('%PDF-1.4 fake invoice').toString('base64');
    const id = await send({
      to: 'jane@customer.example',
      subject: 'Your invoice {{number}}',
      body: 'Invoice {{number}} attached.',
      body_html: '<p>Invoice <b>{{number}}</b> attached.</p>',
      vars: { number: 'A-1042' },
      cc: ['accounts@customer.example'],
      reply_to: 'billing@acme.example',
      email_headers: { 'X-Campaign': 'invoices' },
      attachments: [{ filename: 'invoice.pdf', content: pdf, content_type: 'application/pdf' }],
    });
    expect(await t.worker.drainOnce()).toBe(1);
    const row = await job(id);
    expect(row).toMatchObject({ status: 'sent', provider: 'smtp', attempts: 1 });
    expect(row.provider_message_id).toBe(`<${id}@acme.example>`);

    expect(sink.received).toHaveLength(1);
    const mail = sink.received[0];
    expect(mail.user).toBe('relay-user');
    expect(mail.from).toBe('notifications@acme.example');
    expect(mail.to.sort()).toEqual(['accounts@customer.example', 'jane@customer.example']);
    const m = mail.parsed;
    expect(m.from?.value).toEqual([{ address: 'notifications@acme.example', name: 'Acme Notifications' }]);
    expect(m.headers.get('to')).toMatchObject({ value: [{ address: 'jane@customer.example', name: '' }] });
    expect(m.headers.get('cc')).toMatchObject({ value: [{ address: 'accounts@customer.example', name: '' }] });
    expect(m.replyTo?.value[0].address).toBe('billing@acme.example');
    expect(m.subject).toBe('Your invoice A-1042');
    expect(m.messageId).toBe(`<${id}@acme.example>`);
    expect(m.text?.trim()).toBe('Invoice A-1042 attached.');
    expect(m.html).toBe('<p>Invoice <b>A-1042</b> attached.</p>');
    expect(mail.raw).toMatch(/Content-Type: multipart\/mixed/i);
    expect(mail.raw).toMatch(/Content-Type: multipart\/alternative/i);
    expect(m.headers.get('x-campaign')).toBe('invoices');
    expect(m.attachments).toHaveLength(1);
    expect(m.attachments[0]).toMatchObject({ filename: 'invoice.pdf', contentType: 'application/pdf' });
    expect(m.attachments[0].content.toString()).toBe('%PDF-1.4 fake invoice');
    // Transactional: no unsubscribe headers.
    expect(m.headers.has('list-unsubscribe')).toBe(false);
  });

  it('adds RFC 8058 one-click unsubscribe headers to marketing email, unless the caller set its own', async () => {
    const campaign = await send({ to: 'a@customer.example', tags: [{ name: 'category', value: 'newsletter' }] });
    const own = await send({
      to: 'b@customer.example',
      priority: 'bulk',
      email_headers: { 'List-Unsubscribe': '<mailto:leave@acme.example>' },
    });
    const given = await send({
      to: 'c@customer.example',
      priority: 'bulk',
      vars: { unsubscribe_url: 'https://acme.example/leave?u=c' },
    });
    expect(await t.worker.drainOnce()).toBe(3);
    // The header lines exactly as they arrived (mailparser folds List-* headers into one object).
    const header = (to: string, name: string) =>
      sink.received
        .find((r) => r.to.includes(to))!
        .parsed.headerLines.find((h) => h.key === name)
        ?.line.replace(/^[^:]+:\s*/, '')
        .replace(/\r?\n\s+/g, ' ');
    // A signed link of the governance module (u1.<key id>.<claim>.<mac>, see unsubscribeUrl).
    expect(header('a@customer.example', 'list-unsubscribe')).toMatch(
      /^<https:\/\/notify\.acme\.example\/u\/u1\.j\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+>$/,
    );
    expect(await job(campaign)).toMatchObject({ status: 'sent' });
    expect(header('a@customer.example', 'list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    expect(header('b@customer.example', 'list-unsubscribe')).toBe('<mailto:leave@acme.example>');
    expect(header('b@customer.example', 'list-unsubscribe-post')).toBeUndefined();
    expect(header('c@customer.example', 'list-unsubscribe')).toBe('<https://acme.example/leave?u=c>');
    expect(header('c@customer.example', 'list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    expect(await job(own)).toMatchObject({ status: 'sent' });
    expect(await job(given)).toMatchObject({ status: 'sent' });
  });

  // Every row of the SMTP table in docs/CONNECTORS.md, through the worker.
  const table: {
    reply: { code: number; message: string } | 'stall';
    status: string;
    attempts: number;
    error: RegExp;
    paused?: boolean;
    dead?: boolean;
  }[] = [
    {
      reply: { code: 421, message: '4.7.0 Too many connections, slow down' },
      status: 'pending',
      attempts: 0,
      error: /rate limited: SMTP 421/,
      paused: true,
    },
    {
      reply: { code: 452, message: '4.5.3 Too many recipients' },
      status: 'pending',
      attempts: 0,
      error: /rate limited: SMTP 452/,
      paused: true,
    },
    {
      reply: { code: 450, message: '4.2.0 Greylisted, try again later' },
      status: 'retry',
      attempts: 1,
      error: /SMTP 450/,
    },
    { reply: { code: 451, message: '4.3.0 Local error' }, status: 'retry', attempts: 1, error: /SMTP 451/ },
    {
      reply: { code: 550, message: '5.1.1 Mailbox does not exist' },
      status: 'bounced',
      attempts: 1,
      error: /SMTP 550/,
      dead: true,
    },
    {
      reply: { code: 551, message: '5.1.6 User not local' },
      status: 'bounced',
      attempts: 1,
      error: /SMTP 551/,
      dead: true,
    },
    {
      reply: { code: 553, message: '5.1.3 Bad mailbox name' },
      status: 'bounced',
      attempts: 1,
      error: /SMTP 553/,
      dead: true,
    },
    { reply: { code: 554, message: '5.7.1 Rejected by policy' }, status: 'failed', attempts: 1, error: /SMTP 554/ },
    { reply: 'stall', status: 'retry', attempts: 1, error: /SMTP ETIMEDOUT|timeout/i },
  ];
  // A fresh address per row: a dead address is suppressed, and would not be sent to again.
  let addressNo = 0;
  it.each(table)('RCPT TO answered $reply → job $status', async ({ reply, status, attempts, error, paused, dead }) => {
    sink.script = (to) => (to.startsWith('scripted') ? reply : 'accept');
    const to = `scripted-${++addressNo}@customer.example`;
    const id = await send({ to });
    await t.worker.drainOnce();
    const row = await job(id);
    expect(row.status).toBe(status);
    expect(row.attempts).toBe(attempts);
    expect(row.error).toMatch(error);
    expect(sink.received).toHaveLength(0);
    const pause = await t.notifyd.app.get(PacingService).pauseOf({ channel: 'email', provider: 'smtp' });
    expect(!!pause).toBe(!!paused);
    // A dead mailbox (deadRecipient) becomes a bounce suppression; nothing else does.
    const suppressions = await t.db.sql(
      `SELECT reason FROM suppressions WHERE channel = 'email' AND address = $1 AND released_at IS NULL`,
      [to],
    );
    expect(suppressions.map((r) => r.reason)).toEqual(dead ? ['bounce'] : []);
    // A synchronous hard bounce ends the job bounced, as the provider's bounce webhook would.
    expect(!!row.bounced_at).toBe(!!dead);
  });

  it('a refused relay login retries instead of failing the mail (the operator fixes the credentials)', async () => {
    const wrong = await startTestApp({
      database: t.db,
      env: {
        EMAIL_PROVIDER: 'smtp',
        SMTP_HOST: '127.0.0.1',
        SMTP_PORT: String(port),
        SMTP_SECURITY: 'none',
        SMTP_USERNAME: 'relay-user',
        SMTP_PASSWORD: 'wrong',
      },
    });
    try {
      const id = await send({ to: 'jane@customer.example' });
      await wrong.worker.drainOnce();
      const row = await job(id);
      expect(row.status).toBe('retry');
      expect(row.error).toMatch(/SMTP 535.*check SMTP_USERNAME and SMTP_PASSWORD/);
      expect(row.error).not.toContain('wrong');
    } finally {
      await wrong.notifyd.close();
    }
  });
});

describe('email over SMTP with DKIM', () => {
  it('signs the message with the configured domain and selector', async () => {
    const sink = new SmtpSink();
    const port = await sink.start();
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 1024 });
    const pem = privateKey.export({ type: 'pkcs1', format: 'pem' }).toString().replace(/\n/g, '\\n');
    const t = await startTestApp({
      env: {
        EMAIL_PROVIDER: 'smtp',
        SMTP_HOST: '127.0.0.1',
        SMTP_PORT: String(port),
        SMTP_SECURITY: 'none',
        DKIM_DOMAIN: 'acme.example',
        DKIM_SELECTOR: 'notifyd',
        DKIM_PRIVATE_KEY: pem,
      },
    });
    try {
      const project = await t.createProject();
      const res = await t.http
        .post('/v1/send')
        .set('X-Api-Key', project.key)
        .send({ channels: ['email'], to: 'jane@customer.example', subject: 'Signed', body: 'hi' });
      expect(res.status).toBe(200);
      await t.worker.drainOnce();
      expect(sink.received).toHaveLength(1);
      const signature =
        sink.received[0].parsed.headerLines.find((h) => h.key === 'dkim-signature')?.line.replace(/\r?\n\s+/g, ' ') ??
        '';
      expect(signature).toMatch(/d=acme\.example/);
      expect(signature).toMatch(/s=notifyd/);
      expect(signature).toMatch(/b=[A-Za-z0-9+/=\s]{40,}/);
    } finally {
      await t.close();
      await sink.stop();
    }
  });

  it('refuses to start with an incomplete DKIM configuration, naming the variables', async () => {
    const db = await createTestDatabase();
    try {
      await expect(
        startTestApp({
          database: db,
          env: { EMAIL_PROVIDER: 'smtp', SMTP_HOST: '127.0.0.1', DKIM_DOMAIN: 'acme.example' },
        }),
      ).rejects.toThrow('DKIM signing needs DKIM_DOMAIN, DKIM_SELECTOR and DKIM_PRIVATE_KEY together');
      await expect(startTestApp({ database: db, env: { EMAIL_PROVIDER: 'smtp' } })).rejects.toThrow(
        'EMAIL_PROVIDER=smtp needs SMTP_HOST',
      );
    } finally {
      await db.drop();
    }
  });
});
