import { SignalsService } from '../src/database/signals/signals.service.js';
import { WorkerWakeup } from '../src/jobs/worker/worker-wakeup.js';
import { RecordingConnector, RecordingConnectorModule, rateLimited } from './helpers/recording-connector.js';
import { eventually, SignalTap } from './helpers/signal-tap.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The worker sleeps until a signal, the next known due time or the fallback poll. The poll is
 * set to 60 s here, far beyond every wait below: anything sent in time was woken by the mechanism
 * under test, not by polling.
 */
describe('worker wake-up: signals instead of polling', () => {
  let worker: TestApp;
  let api: TestApp;
  let provider: RecordingConnector;
  let project: { id: string; key: string };
  let tap: SignalTap;

  beforeAll(async () => {
    const env = { SMS_PROVIDER: 'recording', WORKER_POLL_INTERVAL_MS: '60000' };
    worker = await startTestApp({ env: { ...env, NOTIFYD_ROLE: 'all' }, imports: [RecordingConnectorModule] });
    // Another replica, API only: its enqueues reach the worker through signals alone.
    api = await startTestApp({ database: worker.db, env, imports: [RecordingConnectorModule] });
    provider = worker.notifyd.app.get(RecordingConnector);
    project = await api.createProject();
    tap = await SignalTap.open(worker.db.url);
    await eventually(async () => worker.notifyd.app.get(SignalsService).listening || undefined);
  });
  afterAll(async () => {
    await tap.close();
    await api.close();
    await worker.close();
  });
  beforeEach(() => {
    provider.reset();
    tap.clear();
  });

  const send = async (body: Record<string, unknown> = {}) => {
    const res = await api.http
      .post('/v1/send')
      .set('X-Api-Key', project.key)
      .send({ channels: ['sms'], to: '+33600000001', body: 'hi', ...body });
    expect(res.status).toBe(200);
    return res.body.job_ids[0] as string;
  };
  const status = async (id: string) =>
    (await worker.db.sql<{ status: string }>(`SELECT status FROM jobs WHERE id = $1`, [id]))[0].status;
  const sentSoon = (id: string, timeoutMs = 10_000) =>
    eventually(async () => ((await status(id)) === 'sent' ? true : undefined), timeoutMs);
  /**
   * Until the worker's loop is asleep (its sleeper holds a waiter), not still between a claim and
   * its sleep: a fixed 200 ms can be too short on a loaded machine, and a worker still
   * awake claims what appears without any wake-up.
   */
  const idle = () =>
    eventually(async () => {
      const wakeup = worker.notifyd.app.get(WorkerWakeup) as unknown as { sleeper: { waiter?: unknown } };
      return wakeup.sleeper.waiter ? true : undefined;
    });

  it('a job enqueued on another replica wakes the idle worker through jobs.due, long before the poll', async () => {
    await idle(); // the worker sleeps, for up to 60 s
    const id = await send();
    await tap.waitFor((p) => p === 'jobs.due:sms');
    await sentSoon(id);
    expect(provider.messages.map((m) => m.jobId)).toEqual([id]);
  });

  it('a job scheduled for later sends no signal; the worker wakes at its due time, which it reads before sleeping', async () => {
    // Due in 5 s: the checks below, until `later` is still pending, must be done by then even on a
    // loaded machine (with 1.5 s, a slow send and drain of `now` could take `later` along).
    const later = await send({ scheduled_at: new Date(Date.now() + 5_000).toISOString() });
    await worker.notifyd.app.get(SignalsService).flush();
    await api.notifyd.app.get(SignalsService).flush();
    await sleep(150);
    expect(tap.matching('jobs.due:')).toEqual([]);
    // Any wake-up makes the worker look up the next due time before it sleeps again.
    const now = await send();
    await sentSoon(now);
    expect(await status(later)).toBe('pending');
    await sentSoon(later, 20_000);
    const [row] = await worker.db.sql<{ late_ms: number }>(
      `SELECT extract(epoch FROM (sent_at - scheduled_at)) * 1000 AS late_ms FROM jobs WHERE id = $1`,
      [later],
    );
    expect(Number(row.late_ms)).toBeGreaterThanOrEqual(0);
  });

  it('a job re-queued after a 429 is due when the pause ends: the worker that wrote it wakes then, without a poll', async () => {
    provider.script = (_m, call) => (call === 1 ? rateLimited(1_000) : { ok: true, providerMessageId: 'rec_ok' });
    const id = await send();
    await eventually(async () => (provider.calls.length >= 1 ? true : undefined));
    await sentSoon(id);
    expect(provider.calls).toHaveLength(2);
    const [row] = await worker.db.sql<{ attempts: number }>(`SELECT attempts FROM jobs WHERE id = $1`, [id]);
    expect(row.attempts).toBe(1);
  });

  it('killing the listening connection: it reconnects, resyncs, and a job whose signal was missed is sent', async () => {
    const signals = worker.notifyd.app.get(SignalsService);
    const connections = signals.stats().connections;
    await idle();
    // A job nobody signalled (inserted straight into the table), like one enqueued while the
    // listener was down: without a resync only the 60 s poll would find it.
    const [{ id }] = await worker.db.sql<{ id: string }>(
      `INSERT INTO jobs (project_id, channel, recipient, payload) VALUES ($1, 'sms', '+33600000003', '{"body":"gap"}') RETURNING id`,
      [project.id],
    );
    await sleep(300);
    expect(await status(id)).toBe('pending');
    await worker.db.sql(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'notifyd-listener' AND datname = current_database()`,
    );
    await sentSoon(id);
    expect(signals.stats().connections).toBe(connections + 1);
  });
});
