import { Module } from '@nestjs/common';
import type { Connector, DeliveryResult, OutboundMessage } from '../src/connectors/connector.js';
import { NotifyConnector } from '../src/connectors/connector.decorator.js';
import { ProviderError } from '../src/connectors/provider-error.js';
import { LaneStateService } from '../src/pacing/lane-state.service.js';
import { PAUSE_VISIBILITY_MS, PacingService } from '../src/pacing/pacing.service.js';
import { RecordingConnector, RecordingConnectorModule, rateLimited } from './helpers/recording-connector.js';
import { ADMIN_KEY, READONLY_KEY, startTestApp, type TestApp } from './helpers/test-app.js';

/** A scripted email provider, beside the recording SMS one, to show that lanes are independent. */
@NotifyConnector()
class RecordingEmailConnector implements Connector {
  readonly channel = 'email' as const;
  readonly provider = 'mailrec';
  readonly batchMax = 1;
  calls: OutboundMessage[][] = [];
  script: (m: OutboundMessage) => DeliveryResult = () => ({
    ok: true,
    providerMessageId: `m_${Math.random().toString(36).slice(2)}`,
  });
  async send(messages: readonly OutboundMessage[]): Promise<DeliveryResult[]> {
    this.calls.push([...messages]);
    return messages.map((m) => this.script(m));
  }
}
@Module({ providers: [RecordingEmailConnector] })
class RecordingEmailModule {}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const ok = (): DeliveryResult => ({ ok: true, providerMessageId: `rec_${Math.random().toString(36).slice(2)}` });

describe('pacing: lane pauses, quota exhaustion, operator surface', () => {
  let t: TestApp;
  let sms: RecordingConnector;
  let email: RecordingEmailConnector;
  let project: { id: string; key: string };

  beforeAll(async () => {
    t = await startTestApp({
      // One call at a time, so that "the next call meets the pause" is deterministic here;
      // calls already in flight at a 429 are the multi-process tests' subject.
      env: { SMS_PROVIDER: 'recording', EMAIL_PROVIDER: 'mailrec', WORKER_BATCH_SIZE: '100', WORKER_CONCURRENCY: '1' },
      imports: [RecordingConnectorModule, RecordingEmailModule],
    });
    sms = t.notifyd.app.get(RecordingConnector);
    email = t.notifyd.app.get(RecordingEmailConnector);
    project = await t.createProject();
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    sms.reset();
    email.calls = [];
    email.script = ok;
    await t.db.sql(`DELETE FROM jobs`);
    const pacing = t.notifyd.app.get(PacingService);
    for (const lane of [
      { channel: 'sms', provider: 'recording' },
      { channel: 'email', provider: 'mailrec' },
    ] as const)
      await pacing.resume(lane);
    await t.db.sql(`DELETE FROM pacing_lanes`);
  });
  /**
   * Ends the pauses now, as if their time had passed (the tests that wait for real time are in
   * test/faults/pacing-storms.fault-spec.ts): a machine under load would otherwise outlive short pauses.
   */
  const timePasses = async () => {
    await t.db.sql(`UPDATE pacing_lanes SET paused_until = now() WHERE paused_until > now()`);
    await t.db.sql(`UPDATE jobs SET run_at = now() WHERE status IN ('pending','retry') AND run_at > now()`);
    await sleep(PAUSE_VISIBILITY_MS + 50);
  };

  const send = async (channel: string, to: string, extra: Record<string, unknown> = {}) => {
    const res = await t.http
      .post('/v1/send')
      .set('X-Api-Key', project.key)
      .send({ channels: [channel], to, body: 'hi', subject: 's', ...extra });
    expect(res.status).toBe(200);
    return res.body.job_ids[0] as string;
  };
  const job = async (id: string) =>
    (await t.db.sql(`SELECT status, attempts, error, run_at FROM jobs WHERE id = $1`, [id]))[0];
  const admin = (method: 'get' | 'post', path: string, key = ADMIN_KEY) => t.http[method](path).set('X-Api-Key', key);

  it('a 429 pauses the lane in PostgreSQL: the job keeps its attempt and waits, and no replica claims the lane until the pause ends', async () => {
    // A second replica on the same database (its own process state, same tables).
    const replica = await startTestApp({
      database: t.db,
      env: { SMS_PROVIDER: 'recording' },
      imports: [RecordingConnectorModule],
    });
    try {
      const other = replica.notifyd.app.get(RecordingConnector);
      sms.script = (_m, call) => (call === 1 ? rateLimited(60_000) : ok());
      const first = await send('sms', '+33600000001');
      await t.worker.drainOnce();
      expect(await job(first)).toMatchObject({ status: 'pending', attempts: 0 });
      const [lane] = await t.db.sql(
        `SELECT pause_kind, paused_until > now() + interval '50 seconds' AS paused FROM pacing_lanes WHERE lane_key = 'sms:recording'`,
      );
      expect(lane).toEqual({ pause_kind: 'rate_limited', paused: true });

      // The replica sees the pause: it neither claims nor calls.
      const second = await send('sms', '+33600000002');
      expect(await replica.worker.drainOnce()).toBe(0);
      expect(other.calls).toHaveLength(0);
      expect(await job(second)).toMatchObject({ status: 'pending', attempts: 0 });

      // Once the pause is over, sending goes on with no one lifting it.
      await timePasses();
      await replica.worker.drainOnce();
      expect(await job(first)).toMatchObject({ status: 'sent', attempts: 1 });
      expect(await job(second)).toMatchObject({ status: 'sent', attempts: 1 });
      expect(other.calls).toHaveLength(2);
    } finally {
      await replica.close();
    }
  });

  it("a project's own lane (its own credentials) pauses only that project's jobs", async () => {
    const pacing = t.notifyd.app.get(PacingService);
    const other = await t.createProject();
    await pacing.pause(
      { channel: 'sms', provider: 'recording', projectId: project.id },
      60_000,
      'rate_limited',
      'own account 429',
    );
    const mine = await send('sms', '+33600000010');
    const res = await t.http
      .post('/v1/send')
      .set('X-Api-Key', other.key)
      .send({ channels: ['sms'], to: '+33600000011', body: 'hi' });
    await t.worker.drainOnce();
    expect(await job(mine)).toMatchObject({ status: 'pending', attempts: 0 });
    expect(await job(res.body.job_ids[0])).toMatchObject({ status: 'sent', attempts: 1 });
    const lane = await t.notifyd.app.get(LaneStateService).lane(`sms:recording:${project.id}`);
    expect(lane).toMatchObject({ projectId: project.id, pauseKind: 'rate_limited' });
    await pacing.resume({ channel: 'sms', provider: 'recording', projectId: project.id });
  });

  it('a longer pause is never shortened by a later, shorter Retry-After', async () => {
    const pacing = t.notifyd.app.get((await import('../src/pacing/pacing.service.js')).PacingService);
    const lane = { channel: 'sms' as const, provider: 'recording' };
    const long = await pacing.pause(lane, 60_000, 'rate_limited', 'first');
    const short = await pacing.pause(lane, 1_000, 'rate_limited', 'second');
    expect(short.until.getTime()).toBe(long.until.getTime());
    expect(short.reason).toBe('first');
  });

  it('an email pause leaves SMS flowing, and an SMS 429 leaves email flowing', async () => {
    email.script = () => ({ ok: false, error: ProviderError.rateLimited('HTTP 429: slow down', 30_000) });
    const mail = await send('email', 'jane@example.com');
    const text = await send('sms', '+33600000003');
    await t.worker.drainOnce();
    expect(await job(mail)).toMatchObject({ status: 'pending', attempts: 0 });
    expect(await job(text)).toMatchObject({ status: 'sent', attempts: 1 });

    // While email is paused, new SMS keep going out and new email is not even claimed.
    const mail2 = await send('email', 'john@example.com');
    const text2 = await send('sms', '+33600000004');
    await t.worker.drainOnce();
    expect(email.calls).toHaveLength(1);
    expect(await job(mail2)).toMatchObject({ status: 'pending', attempts: 0 });
    expect(await job(text2)).toMatchObject({ status: 'sent' });

    // The other way round: an SMS 429 does not stop email.
    await admin('post', '/v1/admin/lanes/email:mailrec/resume').expect(200);
    email.script = ok;
    sms.script = () => rateLimited(30_000);
    await t.db.sql(`UPDATE jobs SET run_at = now() WHERE status = 'pending'`);
    const text3 = await send('sms', '+33600000005');
    await t.worker.drainOnce();
    expect(await job(mail)).toMatchObject({ status: 'sent', attempts: 1 });
    expect(await job(mail2)).toMatchObject({ status: 'sent', attempts: 1 });
    expect(await job(text3)).toMatchObject({ status: 'pending', attempts: 0 });
  });

  it('with 5 000 bulk jobs queued behind a pause, a critical job enqueued during the pause is in the first batch sent after it', async () => {
    await t.db.sql(
      `INSERT INTO jobs (project_id, channel, recipient, priority, payload)
       SELECT $1, 'sms', '+3361' || lpad(g::text, 7, '0'), 80, '{}'::jsonb FROM generate_series(1, 5000) g`,
      [project.id],
    );
    sms.script = (_m, call) => (call === 1 ? rateLimited(60_000) : ok());
    await t.worker.drainOnce(); // one call, a 429: the batch goes back, the lane pauses
    expect(sms.calls).toHaveLength(1);
    const critical = await send('sms', '+33699999999', { priority: 'critical' });
    expect(await t.worker.drainOnce()).toBe(0); // paused: nothing claimed, priorities do not bypass it
    expect(sms.calls).toHaveLength(1);

    await timePasses();
    const repository = t.notifyd.app.get((await import('../src/jobs/worker/worker.repository.js')).WorkerRepository);
    const dispatcher = t.notifyd.app.get((await import('../src/jobs/worker/dispatcher.js')).Dispatcher);
    const batch = await repository.claim(100, []);
    await dispatcher.dispatch(batch, { stopping: false });
    const firstAfter = sms.calls
      .slice(1)
      .flat()
      .map((m) => m.jobId);
    expect(firstAfter).toHaveLength(100);
    expect(firstAfter).toContain(critical);
    expect(await job(critical)).toMatchObject({ status: 'sent', attempts: 1 });
    const [{ burned }] = await t.db.sql(
      `SELECT count(*)::int AS burned FROM jobs WHERE status = 'pending' AND attempts > 0`,
    );
    expect(burned).toBe(0);
  });

  it('a daily quota error pauses the lane until the announced reset, uses no attempt, and is a critical finding', async () => {
    sms.script = () => ({
      ok: false,
      error: ProviderError.rateLimited('daily_quota_exceeded', 3_600_000, { quotaExhausted: true }),
    });
    const a = await send('sms', '+33600000006');
    const b = await send('sms', '+33600000007');
    await t.worker.drainOnce();
    expect(sms.calls).toHaveLength(1); // the second call met the pause, not the provider
    for (const id of [a, b]) expect(await job(id)).toMatchObject({ status: 'pending', attempts: 0 });
    const lanes = t.notifyd.app.get(LaneStateService);
    const lane = await lanes.lane('sms:recording');
    expect(lane.pauseKind).toBe('quota_exhausted');
    expect(lane.pausedUntil!.getTime()).toBeGreaterThan(Date.now() + 3_500_000);
    const findings = await lanes.findings();
    expect(findings).toEqual([
      expect.objectContaining({
        severity: 'critical',
        laneKey: 'sms:recording',
        message: expect.stringMatching(/quota is exhausted/),
      }),
    ]);
    const [audit] = await t.db.sql(
      `SELECT actor, resource FROM audit_log WHERE action = 'lane.paused' ORDER BY id DESC LIMIT 1`,
    );
    expect(audit).toEqual({ actor: 'system', resource: 'sms:recording' });
  });

  it('operators list lanes, pause and resume them; the read-only key only reads', async () => {
    const list = await admin('get', '/v1/admin/lanes', READONLY_KEY).expect(200);
    const smsLane = list.body.lanes.find((l: { lane: string }) => l.lane === 'sms:recording');
    expect(smsLane).toMatchObject({
      channel: 'sms',
      provider: 'recording',
      active: true,
      rate: 0,
      paused: false,
      tokens: null,
    });

    await admin('post', '/v1/admin/lanes/sms:recording/pause', READONLY_KEY).send({}).expect(403);
    await admin('post', '/v1/admin/lanes/fax:nobody/pause').send({}).expect(404);
    const bad = await admin('post', '/v1/admin/lanes/sms:recording/pause').send({ duration_secs: 0 }).expect(422);
    expect(bad.body.error).toBe('validation_failed');

    const paused = await admin('post', '/v1/admin/lanes/sms:recording/pause')
      .send({ duration_secs: 600, reason: 'provider incident' })
      .expect(200);
    expect(paused.body).toMatchObject({
      lane: 'sms:recording',
      paused: true,
      pause_kind: 'operator',
      pause_reason: 'provider incident',
    });
    const id = await send('sms', '+33600000008');
    await t.worker.drainOnce();
    expect(sms.calls).toHaveLength(0);
    expect((await lanesFindings()).map((f) => f.severity)).toEqual(['info']);

    const resumed = await admin('post', '/v1/admin/lanes/sms:recording/resume').send({}).expect(200);
    expect(resumed.body.paused).toBe(false);
    await t.worker.drainOnce();
    expect(await job(id)).toMatchObject({ status: 'sent', attempts: 1 });
    const actions = await t.db.sql(
      `SELECT action FROM audit_log WHERE resource = 'sms:recording' AND actor = 'admin' ORDER BY id`,
    );
    expect(actions.map((a) => a.action)).toEqual(['lane.paused', 'lane.resumed']);
  });

  const lanesFindings = () => t.notifyd.app.get(LaneStateService).findings();
});

describe('pacing: fair share between projects on one lane', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ env: { SMS_PROVIDER: 'log', SMS_RATE_PER_SEC: '2', LOG_CONNECTOR_BATCH_MAX: '1' } });
  });
  afterAll(() => t.close());

  it("one project's campaign does not queue another project's message at the same priority behind it", async () => {
    const campaign = await t.createProject('campaigner');
    const other = await t.createProject('transactional');
    await t.db.sql(
      `INSERT INTO subscribers (project_id, id, phone) SELECT 'campaigner', 'u' || g, '+3362' || lpad(g::text, 7, '0') FROM generate_series(1, 300) g`,
    );
    const subscribers = Array.from({ length: 300 }, (_, i) => `u${i + 1}`);
    const batch = await t.http
      .post('/v1/batch')
      .set('X-Api-Key', campaign.key)
      .send({ channels: ['sms'], subscribers, body: 'sale', priority: 'normal' });
    expect(batch.status).toBe(200);
    const res = await t.http
      .post('/v1/send')
      .set('X-Api-Key', other.key)
      .send({ channels: ['sms'], to: '+33600000009', body: 'your code', priority: 'normal' });
    expect(res.status).toBe(200);

    // The campaign's jobs take the lane's rate (2/s, one call per message) one after another;
    // the other project's message takes its own turn now instead of after 300 of them.
    const order = await t.db.sql<{ project_id: string }>(
      `SELECT project_id FROM jobs WHERE channel = 'sms' ORDER BY priority, run_at, id`,
    );
    expect(order).toHaveLength(301);
    const position = order.findIndex((r) => r.project_id === 'transactional');
    expect(position).toBeGreaterThanOrEqual(0);
    expect(position).toBeLessThan(30); // FIFO would put it at 300
    const spread = await t.db.sql<{ span: number }>(
      `SELECT extract(epoch FROM max(run_at) - min(run_at))::float8 AS span FROM jobs WHERE project_id = 'campaigner'`,
    );
    // 299 steps of 0.5 s, on a 250 ms grid
    expect(spread[0].span).toBeGreaterThan(149);
    expect(spread[0].span).toBeLessThan(150);

    // And it is what the worker does: the due jobs are claimed in that order.
    const repository = t.notifyd.app.get((await import('../src/jobs/worker/worker.repository.js')).WorkerRepository);
    const claimed = await repository.claim(100, []);
    expect(claimed.some((j) => j.projectId === 'transactional')).toBe(true);
    expect(claimed.length).toBeLessThan(40);
  });
});
