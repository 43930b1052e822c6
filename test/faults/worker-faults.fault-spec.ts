import { GatewayProvider } from '../fakes/gateway-provider.js';
import { spawnNotifyd, type NotifydProcess } from '../helpers/spawn-notifyd.js';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database.js';
import { verdict } from './verdict.js';

/**
 * Faults against real worker processes (dist/), one real PostgreSQL and a provider fake that
 * records every message it receives. Each test ends with a verdict line (test/faults/verdict.ts).
 */
const FAST_RECOVERY = { WORKER_LEASE_SECS: '5', WORKER_REAPER_INTERVAL_SECS: '1', WORKER_POLL_INTERVAL_MS: '50' };

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('faults: worker processes', () => {
  let db: TestDatabase;
  let provider: GatewayProvider;
  let providerUrl: string;
  const processes: NotifydProcess[] = [];

  const count = async (where: string) =>
    Number((await db.sql<{ n: string }>(`SELECT count(*) AS n FROM jobs WHERE ${where}`))[0].n);
  const enqueue = (n: number) =>
    db.sql(`
      INSERT INTO jobs (project_id, channel, recipient, priority, payload)
      SELECT 'acme', 'sms', '+3361' || lpad(g::text, 7, '0'), 50, '{"body":"hi"}'::jsonb FROM generate_series(1, ${n}) g`);
  const start = async (env: Record<string, string>, batchMax = 10) => {
    const p = await spawnNotifyd({
      databaseUrl: db.url,
      env: { SMS_PROVIDER: 'gateway', ...FAST_RECOVERY, ...env },
      gateway: { url: providerUrl, channel: 'sms', batchMax },
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
    provider.script = (r) => ({ results: r.messages.map(() => ({ ok: true })) });
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

  it('kill -9 mid-batch: every job ends sent, none lost; duplicates only for sends in flight at the kill', async () => {
    provider.script = (r) => ({ results: r.messages.map(() => ({ ok: true })), delayMs: 100 });
    await enqueue(2_000);
    const victim = await start({ WORKER_BATCH_SIZE: '100', WORKER_CONCURRENCY: '4' });
    await until('the first sends', async () => provider.messages.length >= 300);
    victim.kill('SIGKILL');
    expect((await victim.exited).signal).toBe('SIGKILL');
    // What the dead worker held: claimed, maybe already at the provider, never recorded.
    const inFlight = await db.sql<{ id: string }>(`SELECT id FROM jobs WHERE status = 'processing'`);
    const receivedBeforeRecovery = new Set(provider.messages.map((m) => m.job_id));
    const inFlightAtProvider = inFlight.filter((j) => receivedBeforeRecovery.has(j.id)).length;

    await start({ WORKER_BATCH_SIZE: '100' });
    await until('the drain', async () => (await count(`status <> 'sent'`)) === 0);

    const ids = provider.messages.map((m) => m.job_id);
    const unique = new Set(ids);
    const duplicates = ids.length - unique.size;
    expect(unique.size).toBe(2_000); // none lost
    expect(await count(`status = 'sent'`)).toBe(2_000);
    expect(duplicates).toBeLessThanOrEqual(inFlightAtProvider); // only the sends in flight at the kill
    verdict('kill-9-mid-batch', {
      jobs: 2_000,
      lost: 2_000 - unique.size,
      duplicates,
      inFlightAtKill: inFlight.length,
      inFlightAlreadyAtProvider: inFlightAtProvider,
    });
  }, 180_000);

  it('three worker processes, 100 000 jobs: each job reaches the provider exactly once', async () => {
    await enqueue(100_000);
    await Promise.all([1, 2, 3].map(() => start({ WORKER_BATCH_SIZE: '500', DATABASE_MAX_CONNECTIONS: '4' }, 100)));
    await until('the drain', async () => (await count(`status <> 'sent'`)) === 0, 600_000);
    const ids = provider.messages.map((m) => m.job_id);
    const unique = new Set(ids).size;
    expect(unique).toBe(100_000);
    expect(ids).toHaveLength(100_000);
    const pids = new Set(provider.requests.map((r) => r.pid));
    expect(pids.size).toBe(3);
    verdict('three-workers-100k', {
      jobs: 100_000,
      delivered: unique,
      duplicates: ids.length - unique,
      processes: pids.size,
    });
  }, 660_000);

  it('pg_terminate_backend on every notifyd connection mid-load: pools and listener recover, the drain finishes', async () => {
    provider.script = (r) => ({ results: r.messages.map(() => ({ ok: true })), delayMs: 20 });
    await enqueue(3_000);
    const worker = await start({ WORKER_BATCH_SIZE: '100' });
    const api = await start({ NOTIFYD_ROLE: 'api' });
    await until('the first sends', async () => provider.messages.length >= 500);
    const [{ terminated }] = await db.sql<{ terminated: string }>(`
      SELECT count(*) FILTER (WHERE pg_terminate_backend(pid)) AS terminated
        FROM pg_stat_activity WHERE datname = current_database() AND application_name LIKE 'notifyd%'`);
    // Pools of both processes, and the worker's listener.
    expect(Number(terminated)).toBeGreaterThanOrEqual(3);

    await until('the drain', async () => (await count(`status <> 'sent'`)) === 0);
    // The API process answers again (its pool replaced the dead connections).
    // A poll may meet a reset keep-alive socket (the client's, reused across the cut): that poll
    // counts as "not yet", the next one opens a fresh connection.
    let status = 0;
    await until(
      'the API',
      async () => {
        status = await fetch(`${api.url}/v1/health/ready`).then(
          (r) => r.status,
          () => 0,
        );
        return status === 200;
      },
      30_000,
    );
    // And the worker still wakes on new work: signals' listener reconnected.
    await enqueue(10);
    await until('new jobs after the cut', async () => (await count(`status <> 'sent'`)) === 0, 30_000);
    expect(worker.child.exitCode).toBeNull();
    expect(api.child.exitCode).toBeNull();
    const ids = provider.messages.map((m) => m.job_id);
    expect(new Set(ids).size).toBe(3_010);
    verdict('terminate-backends', {
      terminated: Number(terminated),
      jobs: 3_010,
      lost: 3_010 - new Set(ids).size,
      duplicates: ids.length - new Set(ids).size,
      processesAlive: true,
    });
  }, 180_000);

  it('5xx storm across two workers: jobs retry and all end sent; nothing fails that should not', async () => {
    let stormUntil = 0;
    provider.script = (r) =>
      Date.now() < stormUntil
        ? { status: 503, body: JSON.stringify({ error: 'unavailable' }) }
        : { results: r.messages.map(() => ({ ok: true })) };
    await Promise.all([1, 2].map(() => start({ WORKER_BATCH_SIZE: '50' })));
    stormUntil = Date.now() + 3_000;
    await enqueue(500);
    // Transient failures retry with backoff (about 30 s for a first retry, ±20 %).
    await until('the drain', async () => (await count(`status <> 'sent'`)) === 0, 120_000);
    const [{ retried }] = await db.sql<{ retried: string }>(`SELECT count(*) AS retried FROM jobs WHERE attempts > 1`);
    expect(Number(retried)).toBeGreaterThan(0); // the storm was seen…
    expect(await count(`status = 'failed'`)).toBe(0); // …and failed nothing
    const delivered = new Set(
      provider.requests.filter((r) => r.at >= stormUntil).flatMap((r) => r.messages.map((m) => m.job_id)),
    );
    expect(delivered.size).toBe(500);
    verdict('5xx-storm-two-workers', {
      jobs: 500,
      retried: Number(retried),
      failed: 0,
      deliveredAfterStorm: delivered.size,
    });
  }, 180_000);
});
