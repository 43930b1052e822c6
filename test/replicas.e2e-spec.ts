import { GatewayProvider } from './fakes/gateway-provider.js';
import { spawnNotifyd, type NotifydProcess } from './helpers/spawn-notifyd.js';
import { createTestDatabase, type TestDatabase } from './helpers/test-database.js';

/** Real worker processes against one database and one recording provider. */
describe('replicas: worker processes sharing one queue', () => {
  let db: TestDatabase;
  let provider: GatewayProvider;
  let providerUrl: string;
  const workers: NotifydProcess[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
    provider = new GatewayProvider();
    providerUrl = await provider.start();
    await db.sql(`INSERT INTO projects (id, name) VALUES ('acme', 'Acme')`);
  });
  afterAll(async () => {
    for (const w of workers) w.kill('SIGKILL');
    await provider.stop();
    await db.drop();
  });

  it('two worker processes drain 10 000 jobs and the provider sees each exactly once', async () => {
    const gateway = { url: providerUrl, channel: 'sms', batchMax: 50 };
    // A generous send timeout: on a machine saturated by other suites a call may take seconds,
    // and a timeout (a transient failure, retried 30 s later) is not what this test is about.
    // 10 ms per provider call keeps the drain long enough that both processes take part.
    const env = {
      SMS_PROVIDER: 'gateway',
      WORKER_BATCH_SIZE: '200',
      WORKER_POLL_INTERVAL_MS: '50',
      WORKER_SEND_TIMEOUT_MS: '120000',
    };
    provider.script = (r) => ({ results: r.messages.map(() => ({ ok: true })), delayMs: 10 });
    workers.push(
      ...(await Promise.all([
        spawnNotifyd({ databaseUrl: db.url, env, gateway }),
        spawnNotifyd({ databaseUrl: db.url, env, gateway }),
      ])),
    );
    // Both are polling before the jobs appear, so both compete for them.
    await db.sql(`
      INSERT INTO jobs (project_id, channel, recipient, priority, payload)
      SELECT 'acme', 'sms', '+3370' || lpad(g::text, 7, '0'), 50, '{"body":"hi"}'::jsonb FROM generate_series(1, 10000) g`);

    for (let i = 0; i < 600; i++) {
      const [{ left }] = await db.sql<{ left: string }>(`SELECT count(*) AS left FROM jobs WHERE status <> 'sent'`);
      if (Number(left) === 0) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    const ids = provider.messages.map((m) => m.job_id);
    expect(new Set(ids).size).toBe(10_000);
    expect(ids).toHaveLength(10_000);
    const [{ sent }] = await db.sql<{ sent: string }>(
      `SELECT count(*) AS sent FROM jobs WHERE status = 'sent' AND attempts = 1`,
    );
    expect(Number(sent)).toBe(10_000);
    // Both processes took part: the work was shared, not serialised on one.
    expect(new Set(provider.requests.map((r) => r.pid))).toEqual(new Set(workers.map((w) => String(w.child.pid))));

    for (const w of workers) w.kill('SIGTERM');
    const exits = await Promise.all(workers.map((w) => w.exited));
    expect(exits).toEqual([
      { code: 0, signal: null },
      { code: 0, signal: null },
    ]);
  });
});
