import { GatewayProvider } from '../fakes/gateway-provider.js';
import { spawnNotifyd, type NotifydProcess } from '../helpers/spawn-notifyd.js';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database.js';
import { verdict } from './verdict.js';

/**
 * Graceful shutdown of a real worker process (dist/, started as `notifyd serve` starts it):
 * SIGTERM stops claiming, lets the sends in flight finish and exits 0; a send slower than the
 * grace period is abandoned to the reaper, which makes it claimable again after its lease.
 */
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

describe('faults: graceful SIGTERM', () => {
  let db: TestDatabase;
  let provider: GatewayProvider;
  let providerUrl: string;
  const processes: NotifydProcess[] = [];

  const statuses = async () =>
    db.sql<{ status: string; attempts: number; n: number }>(
      `SELECT status, attempts, count(*)::int AS n FROM jobs GROUP BY 1, 2 ORDER BY 1, 2`,
    );
  const enqueue = (n: number) =>
    db.sql(`
      INSERT INTO jobs (project_id, channel, recipient, priority, payload)
      SELECT 'acme', 'sms', '+3362' || lpad(g::text, 7, '0'), 50, '{"body":"hi"}'::jsonb FROM generate_series(1, ${n}) g`);
  const start = async (env: Record<string, string>) => {
    const p = await spawnNotifyd({
      databaseUrl: db.url,
      env: { SMS_PROVIDER: 'gateway', WORKER_POLL_INTERVAL_MS: '50', ...env },
      gateway: { url: providerUrl, channel: 'sms', batchMax: 1 },
    });
    processes.push(p);
    return p;
  };

  beforeAll(async () => {
    db = await createTestDatabase();
    provider = new GatewayProvider();
    providerUrl = await provider.start();
    await db.sql(`INSERT INTO projects (id, name) VALUES ('acme', 'Acme')`);
  });
  beforeEach(async () => {
    provider.requests.length = 0;
    await db.sql(`DELETE FROM jobs`);
  });
  afterEach(async () => {
    for (const p of processes.splice(0)) {
      p.kill('SIGKILL');
      await p.exited;
    }
  });
  afterAll(async () => {
    await provider.stop();
    await db.drop();
  });

  it('SIGTERM with 10 sends in flight: no new claims, the 10 finish, exit 0; the rest stay claimable', async () => {
    // Each provider call takes 1.5 s. Two batches of 5 are in flight at once
    // (WORKER_BATCHES_IN_FLIGHT=2: one sent while the next is claimed), 5 calls each: ten sends
    // in flight at the signal.
    provider.script = async (r) => {
      await sleep(1_500);
      return { results: r.messages.map(() => ({ ok: true as const })) };
    };
    const worker = await start({
      WORKER_CONCURRENCY: '5',
      WORKER_BATCH_SIZE: '5',
      WORKER_BATCHES_IN_FLIGHT: '2',
      SHUTDOWN_GRACE_SECS: '20',
    });
    await enqueue(50);
    await until('ten sends in flight', () => provider.requests.length >= 10);
    await sleep(200);
    const inFlight = provider.requests.length;
    expect(inFlight).toBe(10);
    worker.kill('SIGTERM');
    const exit = await worker.exited;

    const rows = await statuses();
    const count = (status: string) => rows.filter((r) => r.status === status).reduce((n, r) => n + r.n, 0);
    // Nothing new reached the provider after the signal, and every call in flight finished.
    expect(provider.requests.length).toBe(inFlight);
    expect(count('sent')).toBe(inFlight);
    // What was claimed but not started went back unchanged: pending, attempt not spent.
    expect(count('processing')).toBe(0);
    expect(rows.filter((r) => r.status === 'pending').every((r) => r.attempts === 0)).toBe(true);
    expect(count('sent') + count('pending')).toBe(50);
    expect(exit).toEqual({ code: 0, signal: null });
    verdict('sigterm-in-flight', {
      inFlightAtSignal: inFlight,
      finished: count('sent'),
      newCallsAfterSignal: provider.requests.length - inFlight,
      leftPending: count('pending'),
      exitCode: exit.code ?? -1,
    });
  }, 90_000);

  it('a send slower than the grace period is left to the reaper: the process exits on time, another worker sends the job after its lease', async () => {
    let slow = true;
    let slowAnswered = false;
    provider.script = async (r) => {
      if (slow) {
        // unref: the answer that never matters must not keep Jest alive after the suite.
        await new Promise((r) => setTimeout(r, 15_000).unref());
        slowAnswered = true;
      }
      return { results: r.messages.map(() => ({ ok: true as const })) };
    };
    const recovery = { WORKER_LEASE_SECS: '5', WORKER_REAPER_INTERVAL_SECS: '1' };
    const first = await start({ SHUTDOWN_GRACE_SECS: '1', ...recovery });
    await enqueue(1);
    await until('the slow send to start', () => provider.requests.length === 1);
    const signalledAt = Date.now();
    first.kill('SIGTERM');
    const exit = await first.exited;
    const exitMs = Date.now() - signalledAt;
    expect(exit).toEqual({ code: 0, signal: null });
    // It gave up after the grace period instead of waiting for the 15 s answer.
    expect(slowAnswered).toBe(false);
    expect(await statuses()).toEqual([{ status: 'processing', attempts: 1, n: 1 }]);

    // A second worker's reaper returns the job after its lease and sends it: at least once.
    slow = false;
    await start(recovery);
    await until('the job to be sent again', async () => (await statuses()).some((r) => r.status === 'sent'), 60_000);
    const [job] = await statuses();
    expect(job.status).toBe('sent');
    expect(new Set(provider.messages.map((m) => m.job_id)).size).toBe(1);
    verdict('sigterm-slow-send', {
      graceSecs: 1,
      exitCode: exit.code ?? -1,
      exitedAfterMs: exitMs,
      leftToReaper: true,
      sentBySecondWorker: job.status === 'sent',
      providerCalls: provider.requests.length,
    });
  }, 90_000);
});
