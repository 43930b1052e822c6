import { WorkerRepository } from '../src/jobs/worker/worker.repository.js';
import { RecordingConnector, RecordingConnectorModule } from './helpers/recording-connector.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('lease expiry, reaper and retention', () => {
  let t: TestApp;
  let key: string;
  beforeAll(async () => {
    t = await startTestApp({ env: { WORKER_LEASE_SECS: '30' } });
    key = (await t.createProject('life')).key;
  });
  afterAll(() => t.close());
  beforeEach(() => t.db.sql(`DELETE FROM jobs`));

  const send = async (to: string) =>
    (
      await t.http
        .post('/v1/send')
        .set('X-Api-Key', key)
        .send({ channels: ['email'], to, body: 'x' })
        .expect(200)
    ).body.job_ids[0] as string;
  const row = async (id: string) => (await t.db.sql(`SELECT * FROM jobs WHERE id = $1`, [id]))[0];

  it('a job claimed by a worker that died is claimable again after its lease, and then sent', async () => {
    const id = await send('lost@example.com');
    // A worker claims the job and dies before recording an outcome.
    const claimed = await t.notifyd.app.get(WorkerRepository).claim(10, []);
    expect(claimed.map((j) => j.id)).toEqual([id]);
    expect(await t.worker.drainOnce()).toBe(0);
    expect(await t.maintenance.reap()).toBe(0); // lease not expired yet
    await t.db.sql(`UPDATE jobs SET claimed_at = now() - interval '31 seconds' WHERE id = $1`, [id]);
    expect(await t.maintenance.reap()).toBe(1);
    expect(await row(id)).toMatchObject({ status: 'retry', attempts: 1 });
    expect((await row(id)).error).toMatch(/worker lost the job/);
    expect(await t.worker.drainOnce()).toBe(1);
    expect(await row(id)).toMatchObject({ status: 'sent', attempts: 2 });
  });

  it('a job that exhausted its attempts is failed by the reaper instead of looping', async () => {
    const id = await send('poison@example.com');
    await t.db.sql(
      `UPDATE jobs SET status = 'processing', attempts = max_attempts, claimed_at = now() - interval '1 hour' WHERE id = $1`,
      [id],
    );
    expect(await t.maintenance.reap()).toBe(1);
    expect((await row(id)).status).toBe('failed');
  });

  it('an outcome from a claim the reaper gave away is dropped (fenced by attempts)', async () => {
    const id = await send('fence@example.com');
    const repository = t.notifyd.app.get(WorkerRepository);
    const [stale] = await repository.claim(1, []);
    await t.db.sql(`UPDATE jobs SET claimed_at = now() - interval '1 hour' WHERE id = $1`, [id]);
    await t.maintenance.reap();
    const [fresh] = await repository.claim(1, []);
    expect(fresh.attempts).toBe(stale.attempts + 1);
    const { Outcomes } = await import('../src/jobs/worker/outcomes.js');
    const late = new Outcomes(new Set(['life']));
    late.failed.push({ id, attempts: stale.attempts, provider: 'log', error: 'stale answer' });
    await repository.finalise(late);
    expect(await row(id)).toMatchObject({ status: 'processing', error: expect.not.stringContaining('stale') });
    const current = new Outcomes(new Set(['life']));
    current.sent.push({ id, attempts: fresh.attempts, provider: 'log', providerMessageId: 'm1' });
    await repository.finalise(current);
    expect(await row(id)).toMatchObject({ status: 'sent', provider_message_id: 'm1' });
  });

  it('retention deletes finished jobs past their retention and keeps everything else', async () => {
    await t.db.sql(`
      INSERT INTO jobs (project_id, channel, recipient, status, created_at, finished_at)
      VALUES ('life', 'email', 'old-sent',      'sent',      now() - interval '8 days',  now() - interval '8 days'),
             ('life', 'email', 'old-cancelled', 'cancelled', now() - interval '9 days',  now() - interval '9 days'),
             ('life', 'email', 'old-failed',    'failed',    now() - interval '9 days',  now() - interval '9 days'),
             ('life', 'email', 'ancient-failed','failed',    now() - interval '31 days', now() - interval '31 days'),
             ('life', 'email', 'new-sent',      'sent',      now() - interval '8 days',  now() - interval '1 day'),
             ('life', 'email', 'old-pending',   'pending',   now() - interval '40 days', NULL)`);
    expect(await t.maintenance.purge()).toBe(3);
    const left = (await t.db.sql(`SELECT recipient FROM jobs ORDER BY recipient`)).map((r) => r.recipient);
    expect(left).toEqual(['new-sent', 'old-failed', 'old-pending']);
  });
});

describe('graceful shutdown', () => {
  it('stops claiming, lets in-flight sends finish, releases what was not started', async () => {
    const t = await startTestApp({
      env: {
        NOTIFYD_ROLE: 'all',
        SMS_PROVIDER: 'recording',
        WORKER_CONCURRENCY: '2',
        SHUTDOWN_GRACE_SECS: '10',
        WORKER_POLL_INTERVAL_MS: '50',
      },
      imports: [RecordingConnectorModule],
    });
    try {
      const provider = t.notifyd.app.get(RecordingConnector);
      // 3 s: close() must stop the dispatcher before an in-flight send ends and frees a slot for
      // the next job; with 400 ms, a slow start of the shutdown on a loaded machine could let one more start.
      provider.script = async () => {
        await sleep(3_000);
        return { ok: true, providerMessageId: 'slow' };
      };
      const { key } = await t.createProject('halt');
      for (let i = 0; i < 10; i++)
        await t.http
          .post('/v1/send')
          .set('X-Api-Key', key)
          .send({ channels: ['sms'], to: `+3360000${1000 + i}`, body: 'x' })
          .expect(200);
      while (provider.calls.length < 2) await sleep(20);
      const inFlight = provider.calls.length;
      await t.notifyd.close();
      const rows = await t.db.sql(`SELECT status, attempts FROM jobs`);
      const sent = rows.filter((r) => r.status === 'sent');
      expect(sent).toHaveLength(inFlight);
      expect(provider.calls).toHaveLength(inFlight); // nothing new started after the stop
      expect(rows.filter((r) => r.status === 'processing')).toHaveLength(0);
      expect(rows.filter((r) => r.status === 'pending').every((r) => r.attempts === 0)).toBe(true);
      expect(sent.length + rows.filter((r) => r.status === 'pending').length).toBe(10);
    } finally {
      await t.db.drop();
    }
  });

  it('a send slower than the grace period is left to the reaper', async () => {
    const t = await startTestApp({
      env: { NOTIFYD_ROLE: 'all', SMS_PROVIDER: 'recording', SHUTDOWN_GRACE_SECS: '1', WORKER_POLL_INTERVAL_MS: '50' },
      imports: [RecordingConnectorModule],
    });
    try {
      const provider = t.notifyd.app.get(RecordingConnector);
      let answered = false;
      // The answer comes 6 s after the call, far past the 1-s grace: close() must return first,
      // even when shutting the rest down is slow on a loaded machine (2.5 s was not enough there).
      provider.script = async () => {
        await sleep(6000);
        answered = true;
        return { ok: true, providerMessageId: 'late' };
      };
      const { key } = await t.createProject('slow');
      await t.http
        .post('/v1/send')
        .set('X-Api-Key', key)
        .send({ channels: ['sms'], to: '+33600002000', body: 'x' })
        .expect(200);
      while (provider.calls.length < 1) await sleep(20);
      await t.notifyd.close();
      expect(answered).toBe(false); // close() did not wait past the grace period
      const [job] = await t.db.sql(`SELECT status, attempts FROM jobs`);
      expect(job).toEqual({ status: 'processing', attempts: 1 });
      // The late answer arrives after the pool closed: logged, not a crash.
      for (let i = 0; i < 100 && !answered; i++) await sleep(100);
      expect(answered).toBe(true);
      await sleep(200);
    } finally {
      await t.db.drop();
    }
  });
});
