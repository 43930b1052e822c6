import { Module } from '@nestjs/common';
import type { DeliveryResult, OutboundMessage } from '../src/connectors/connector.js';
import { NotifyConnector } from '../src/connectors/connector.decorator.js';
import { FailoverBreaker } from '../src/connectors/failover/failover-breaker.js';
import { PacingService } from '../src/pacing/pacing.service.js';
import { PostmarkFake } from './fakes/postmark-fake.js';
import { ResendFake } from './fakes/resend-fake.js';
import { emailTestKit } from './helpers/email-test-kit.js';
import { RecordingConnector, RecordingConnectorModule, transient } from './helpers/recording-connector.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';
import { createTestDatabase } from './helpers/test-database.js';

const until = async (check: () => Promise<boolean>, what: string, ms = 10_000) => {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
};

/** Failover between two real provider protocols: Resend (primary) → Postmark (fallback). */
describe('email failover: Resend → Postmark', () => {
  const resend = new ResendFake('re_key');
  const postmark = new PostmarkFake('pm_key');
  let t: TestApp;
  let project: { id: string; key: string };
  const kit = emailTestKit(
    () => t,
    () => project,
    'resend',
  );
  const breaker = () => t.notifyd.app.get(FailoverBreaker);
  const primaryState = async () => (await breaker().breakerStates()).find((b) => b.laneKey === 'email:resend');
  /**
   * Waits out the primary's rest, read from the shared table. The rest (EMAIL_FAILOVER_COOLDOWN_SECS)
   * is 4 s: the "while the primary rests" steps send and drain within it, which on a loaded CI
   * machine took longer than the 1 s this file used before.
   */
  const cooledDown = () => until(async () => !(await primaryState())?.resting, 'the cooldown');

  beforeAll(async () => {
    const [resendUrl, postmarkUrl] = await Promise.all([resend.start(), postmark.start()]);
    t = await startTestApp({
      env: {
        EMAIL_PROVIDER: 'resend',
        RESEND_API_KEY: 're_key',
        RESEND_BASE_URL: resendUrl,
        EMAIL_FALLBACK_PROVIDER: 'postmark',
        POSTMARK_SERVER_TOKEN: 'pm_key',
        POSTMARK_BASE_URL: postmarkUrl,
        EMAIL_FAILOVER_COOLDOWN_SECS: '4',
        OUTBOUND_TIMEOUT_MS: '3000',
      },
    });
    project = await t.createProject();
  });
  afterAll(async () => {
    await t.close();
    await Promise.all([resend.stop(), postmark.stop()]);
  });
  beforeEach(async () => {
    resend.reset();
    postmark.reset();
    await kit.fresh();
    await t.notifyd.app.get(PacingService).resume({ channel: 'email', provider: 'postmark' });
    await cooledDown();
  });

  it('a transient refusal goes to the fallback at once, rests the primary, and traffic returns after the cooldown', async () => {
    resend.script = () => ({ status: 503, name: 'application_error', message: 'Service unavailable' });
    const first = await kit.send({ to: 'a@customer.example' });
    await t.worker.drainOnce();
    expect(await kit.job(first)).toMatchObject({ status: 'sent', provider: 'postmark', attempts: 1 });
    expect(resend.emails.map((e) => e.to[0])).toEqual(['a@customer.example']);
    expect(postmark.messages.map((m) => m.To)).toEqual(['a@customer.example']);
    const state = await primaryState();
    expect(state).toMatchObject({
      channel: 'email',
      provider: 'resend',
      fallbackProvider: 'postmark',
      resting: true,
      lastReason: expect.stringMatching(/^resend: Resend 503/),
    });
    const trips = state!.tripsTotal;

    // While the primary rests, the fallback takes the traffic without asking the primary.
    resend.script = () => 'accept';
    const second = await kit.send({ to: 'b@customer.example' });
    await t.worker.drainOnce();
    expect(await kit.job(second)).toMatchObject({ status: 'sent', provider: 'postmark' });
    expect(resend.emails).toHaveLength(1);
    expect((await primaryState())!.failoversTotal).toBeGreaterThanOrEqual(2);

    // After the cooldown the primary is used again.
    await cooledDown();
    const third = await kit.send({ to: 'c@customer.example' });
    await t.worker.drainOnce();
    expect(await kit.job(third)).toMatchObject({ status: 'sent', provider: 'resend' });
    expect(postmark.messages).toHaveLength(2);
    expect((await primaryState())!.tripsTotal).toBe(trips);
  });

  it('a 429 goes to the fallback and pauses the primary lane; jobs keep flowing through the fallback after the breaker cools down', async () => {
    resend.script = () => ({
      status: 429,
      name: 'rate_limit_exceeded',
      message: 'Too many requests',
      headers: { 'retry-after': '60' },
    });
    const first = await kit.send({ to: 'a@customer.example' });
    await t.worker.drainOnce();
    expect(await kit.job(first)).toMatchObject({ status: 'sent', provider: 'postmark', attempts: 1 });
    expect((await kit.pause())?.kind).toBe('rate_limited');

    // The breaker cools down before the lane's 60 s pause ends: the claim does not skip the
    // channel (the fallback is free) and the whole chunk goes to the fallback.
    await cooledDown();
    const second = await kit.send({ to: 'b@customer.example' });
    expect(await t.worker.drainOnce()).toBe(1);
    expect(await kit.job(second)).toMatchObject({ status: 'sent', provider: 'postmark' });
    expect(resend.emails).toHaveLength(1);
  });

  it('a permanent refusal never fails over', async () => {
    resend.script = () => ({ status: 422, name: 'validation_error', message: 'Invalid `to` field.' });
    const id = await kit.send({ to: 'bad@customer.example' });
    await t.worker.drainOnce();
    expect(await kit.job(id)).toMatchObject({
      status: 'failed',
      provider: 'resend',
      error: 'Resend 422 validation_error: Invalid `to` field.',
    });
    expect(postmark.requests).toHaveLength(0);
    expect((await primaryState())?.resting ?? false).toBe(false);
  });

  it('when the fallback fails too, the fallback’s answer decides (retry with backoff)', async () => {
    resend.script = () => ({ status: 500, name: 'application_error', message: 'down' });
    postmark.script = () => ({ http: 503, message: 'also down' });
    const id = await kit.send({ to: 'a@customer.example' });
    await t.worker.drainOnce();
    expect(await kit.job(id)).toMatchObject({
      status: 'retry',
      provider: 'postmark',
      attempts: 1,
      error: expect.stringMatching(/^Postmark 503/),
    });
  });

  it('only the refused items of a batch fail over', async () => {
    resend.script = (to) =>
      to === 'slow@customer.example' ? { status: 503, name: 'application_error', message: 'busy' } : 'accept';
    const ok = await kit.send({ to: 'ok@customer.example', attachments: [{ filename: 'a.txt', content: 'aGk=' }] });
    const slow = await kit.send({ to: 'slow@customer.example', attachments: [{ filename: 'a.txt', content: 'aGk=' }] });
    await t.worker.drainOnce();
    expect(await kit.job(ok)).toMatchObject({ status: 'sent', provider: 'resend' });
    expect(await kit.job(slow)).toMatchObject({ status: 'sent', provider: 'postmark' });
    expect(postmark.messages.map((m) => m.To)).toEqual(['slow@customer.example']);
  });
});

@NotifyConnector()
class BackupSmsConnector {
  readonly channel = 'sms' as const;
  readonly provider = 'backup';
  readonly batchMax = 1;
  readonly received: OutboundMessage[] = [];
  async send(messages: readonly OutboundMessage[]): Promise<DeliveryResult[]> {
    this.received.push(...messages);
    return messages.map(() => ({ ok: true, providerMessageId: 'backup-1' }));
  }
}
@Module({ providers: [BackupSmsConnector] })
class BackupSmsModule {}

describe('failover on any channel (SMS_FALLBACK_PROVIDER)', () => {
  it('moves SMS traffic from the primary to the fallback the same way', async () => {
    const t = await startTestApp({
      env: { SMS_PROVIDER: 'recording', SMS_FALLBACK_PROVIDER: 'backup', SMS_FAILOVER_COOLDOWN_SECS: '30' },
      imports: [RecordingConnectorModule, BackupSmsModule],
    });
    try {
      const primary = t.notifyd.app.get(RecordingConnector);
      const backup = t.notifyd.app.get(BackupSmsConnector);
      primary.script = () => transient();
      const project = await t.createProject();
      const res = await t.http
        .post('/v1/send')
        .set('X-Api-Key', project.key)
        .send({ channels: ['sms'], to: '+33600000001', body: 'hi' });
      await t.worker.drainOnce();
      const [job] = await t.db.sql(`SELECT status, provider FROM jobs WHERE id = $1`, [res.body.job_ids[0]]);
      expect(job).toEqual({ status: 'sent', provider: 'backup' });
      expect(backup.received.map((m) => m.recipient)).toEqual(['+33600000001']);
      const states = await t.notifyd.app.get(FailoverBreaker).breakerStates();
      expect(states).toEqual([
        expect.objectContaining({
          laneKey: 'sms:recording',
          fallbackProvider: 'backup',
          resting: true,
          tripsTotal: 1,
          failoversTotal: 1,
        }),
      ]);
      expect(states[0].restingSeconds).toBeGreaterThan(20);
    } finally {
      await t.close();
    }
  });

  it('refuses to start on a fallback that is unknown, the primary itself, or without a primary', async () => {
    const db = await createTestDatabase();
    try {
      await expect(
        startTestApp({ database: db, env: { SMS_PROVIDER: 'log', SMS_FALLBACK_PROVIDER: 'nexmo' } }),
      ).rejects.toThrow(/^SMS_FALLBACK_PROVIDER=nexmo: no connector implements sms\/nexmo\. Available for sms: log/);
      await expect(
        startTestApp({ database: db, env: { SMS_PROVIDER: 'log', SMS_FALLBACK_PROVIDER: 'log' } }),
      ).rejects.toThrow('SMS_FALLBACK_PROVIDER=log is the primary provider itself');
      await expect(startTestApp({ database: db, env: { WHATSAPP_FALLBACK_PROVIDER: 'log' } })).rejects.toThrow(
        'WHATSAPP_FALLBACK_PROVIDER=log is set but WHATSAPP_PROVIDER is not: a fallback needs a primary.',
      );
    } finally {
      await db.drop();
    }
  });
});
