import {
  RecordingConnector,
  RecordingConnectorModule,
  permanent,
  rateLimited,
  transient,
} from './helpers/recording-connector.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';
import { PacingService } from '../src/pacing/pacing.service.js';

describe('worker: claim, send, finalise', () => {
  let t: TestApp;
  let provider: RecordingConnector;
  let project: { id: string; key: string };

  beforeAll(async () => {
    t = await startTestApp({
      env: { SMS_PROVIDER: 'recording', WORKER_BATCH_SIZE: '500' },
      imports: [RecordingConnectorModule],
    });
    provider = t.notifyd.app.get(RecordingConnector);
    project = await t.createProject();
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    provider.reset();
    await t.notifyd.app.get(PacingService).resume({ channel: 'sms', provider: 'recording' });
    await t.db.sql(`DELETE FROM jobs`);
  });

  const send = async (body: Record<string, unknown>) => {
    const res = await t.http
      .post('/v1/send')
      .set('X-Api-Key', project.key)
      .send({ channels: ['sms'], body: 'hello', ...body });
    expect(res.status).toBe(200);
    return res.body.job_ids[0] as string;
  };
  const job = async (id: string) => (await t.db.sql(`SELECT * FROM jobs WHERE id = $1`, [id]))[0];

  it('delivers a job and records the provider answer', async () => {
    const id = await send({ to: '+33600000001', body: 'Hi {{name}}', vars: { name: 'Jane' } });
    expect(await t.worker.drainOnce()).toBe(1);
    const row = await job(id);
    expect(row.status).toBe('sent');
    expect(row.provider).toBe('recording');
    expect(row.provider_message_id).toMatch(/^rec_/);
    expect(row.attempts).toBe(1);
    expect(provider.messages).toHaveLength(1);
    expect(provider.messages[0]).toMatchObject({ jobId: id, recipient: '+33600000001', body: 'Hi Jane', attempt: 1 });
  });

  it('a 429 pauses the lane and re-queues the job without consuming an attempt', async () => {
    provider.script = () => rateLimited(60_000);
    const id = await send({ to: '+33600000002' });
    await t.worker.drainOnce();
    const row = await job(id);
    expect(row.status).toBe('pending');
    expect(row.attempts).toBe(0);
    expect(row.error).toMatch(/rate limited/);
    expect(new Date(row.run_at).getTime()).toBeGreaterThan(Date.now() + 50_000);
    expect(provider.calls).toHaveLength(1);
  });

  it('a transient failure retries later with backoff and counts the attempt', async () => {
    provider.script = () => transient();
    const id = await send({ to: '+33600000003' });
    // 30 s ± 20 % after the failure, which happens within this drain: measured from either end
    // of it, not from a later now() that a loaded machine pushes back.
    const failedFrom = Date.now();
    await t.worker.drainOnce();
    const failedBy = Date.now();
    const row = await job(id);
    expect(row.status).toBe('retry');
    expect(row.attempts).toBe(1);
    const retryAt = new Date(row.next_retry_at).getTime();
    expect(retryAt).toBeGreaterThanOrEqual(failedFrom + 24_000 - 50);
    expect(retryAt).toBeLessThanOrEqual(failedBy + 36_000 + 50);
  });

  it('a transient failure on the last attempt fails the job', async () => {
    provider.script = () => transient();
    const id = await send({ to: '+33600000004' });
    await t.db.sql(`UPDATE jobs SET attempts = max_attempts - 1 WHERE id = $1`, [id]);
    await t.worker.drainOnce();
    const row = await job(id);
    expect(row.status).toBe('failed');
    expect(row.error).toMatch(/gave up after 5 attempts/);
  });

  it('a permanent failure fails at once', async () => {
    provider.script = () => permanent();
    const id = await send({ to: '+33600000005' });
    await t.worker.drainOnce();
    expect(await job(id)).toMatchObject({ status: 'failed', attempts: 1, error: 'HTTP 422: invalid recipient' });
  });

  it('a batch refused as a whole is retried item by item: the good messages go out', async () => {
    provider.batchMax = 10;
    try {
      const bad = '+33600000666';
      provider.script = (m, call) =>
        call === 1
          ? permanent('HTTP 422: batch rejected')
          : m.recipient === bad
            ? permanent()
            : { ok: true, providerMessageId: `ok_${m.recipient}` };
      const ids = [];
      for (let i = 0; i < 4; i++) ids.push(await send({ to: `+3360000010${i}` }));
      ids.push(await send({ to: bad }));
      await t.worker.drainOnce();
      expect(provider.calls[0]).toHaveLength(5);
      expect(provider.calls.slice(1).every((c) => c.length === 1)).toBe(true);
      const rows = await t.db.sql(`SELECT recipient, status FROM jobs ORDER BY recipient`);
      expect(rows.filter((r) => r.status === 'sent')).toHaveLength(4);
      expect(rows.find((r) => r.recipient === bad)?.status).toBe('failed');
    } finally {
      provider.batchMax = 1;
    }
  });

  it('claims the most urgent first: a critical job enqueued after 5 000 bulk jobs is in the first batch', async () => {
    await t.db.sql(
      `
      INSERT INTO jobs (project_id, channel, recipient, priority, payload)
      SELECT $1, 'sms', '+3361' || lpad(g::text, 7, '0'), 80, '{}'::jsonb FROM generate_series(1, 5000) g`,
      [project.id],
    );
    const critical = await send({ to: '+33699999999', priority: 'critical' });
    const repository = t.notifyd.app.get((await import('../src/jobs/worker/worker.repository.js')).WorkerRepository);
    const first = await repository.claim(500, []);
    expect(first).toHaveLength(500);
    expect(first.map((j) => j.id)).toContain(critical);
    expect(first.find((j) => j.id === critical)?.priority).toBe(10);
  });
});
