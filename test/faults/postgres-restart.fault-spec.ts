import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { type EmbeddedDatabase, startEmbeddedPostgres } from '../../src/database/embedded-postgres.js';
import { GatewayProvider } from '../fakes/gateway-provider.js';
import { TcpProxy } from '../fakes/tcp-proxy.js';
import { spawnNotifyd, type NotifydProcess } from '../helpers/spawn-notifyd.js';
import { verdict } from './verdict.js';

/**
 * PostgreSQL itself restarts during a drain. A PostgreSQL of the test's own (embedded, so the
 * machine's server is never touched) sits behind a loopback proxy: notifyd keeps one address
 * while the server stops, comes back on another port, and the proxy follows it.
 */
describe('faults: PostgreSQL restarted during a drain', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'notifyd-restart-'));
  let server: EmbeddedDatabase;
  let proxy: TcpProxy;
  let provider: GatewayProvider;
  let worker: NotifydProcess | undefined;

  const direct = async <T extends pg.QueryResultRow>(text: string): Promise<T[]> => {
    const client = new pg.Client({ connectionString: server.url });
    await client.connect();
    try {
      return (await client.query<T>(text)).rows;
    } finally {
      await client.end();
    }
  };
  const portOf = (url: string) => Number(new URL(url).port);

  beforeAll(async () => {
    chmodSync(dataDir, 0o755); // as root, the embedded server runs as `postgres`, who must enter it
    server = await startEmbeddedPostgres({ dataDir, persistent: true });
    proxy = new TcpProxy('127.0.0.1', portOf(server.url));
    provider = new GatewayProvider();
  });
  afterAll(async () => {
    worker?.kill('SIGKILL');
    await worker?.exited;
    await proxy?.stop();
    await provider?.stop();
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('the worker survives, reconnects and finishes; no job is lost', async () => {
    const providerUrl = await provider.start();
    const proxied = new URL(server.url);
    proxied.port = String(await proxy.start());
    provider.script = (r) => ({ results: r.messages.map(() => ({ ok: true })), delayMs: 20 });
    worker = await spawnNotifyd({
      databaseUrl: proxied.toString(),
      env: {
        SMS_PROVIDER: 'gateway',
        WORKER_BATCH_SIZE: '100',
        WORKER_LEASE_SECS: '5',
        WORKER_REAPER_INTERVAL_SECS: '1',
        WORKER_POLL_INTERVAL_MS: '50',
      },
      gateway: { url: providerUrl, channel: 'sms', batchMax: 10 },
    });
    await direct(`INSERT INTO projects (id, name) VALUES ('acme', 'Acme')`);
    await direct(`
      INSERT INTO jobs (project_id, channel, recipient, priority, payload)
      SELECT 'acme', 'sms', '+3362' || lpad(g::text, 7, '0'), 50, '{"body":"hi"}'::jsonb FROM generate_series(1, 3000) g`);
    for (let i = 0; provider.messages.length < 500; i++) {
      if (i > 600) throw new Error('no sends before the restart');
      await new Promise((r) => setTimeout(r, 100));
    }

    // Stop the server (its backends end), keep it down for 3 s, start it again on a new port.
    await server.stop();
    proxy.dropAll();
    const sentAtStop = provider.messages.length;
    await new Promise((r) => setTimeout(r, 3_000));
    server = await startEmbeddedPostgres({ dataDir, persistent: true });
    proxy.retarget(portOf(server.url));

    let left = -1;
    for (let i = 0; i < 1_200 && left !== 0; i++) {
      await new Promise((r) => setTimeout(r, 100));
      left = Number((await direct<{ n: string }>(`SELECT count(*) AS n FROM jobs WHERE status <> 'sent'`))[0].n);
    }
    expect(left).toBe(0);
    expect(worker.child.exitCode).toBeNull(); // it survived the outage
    const ids = provider.messages.map((m) => m.job_id);
    const unique = new Set(ids).size;
    expect(unique).toBe(3_000);
    verdict('postgres-restart', {
      jobs: 3_000,
      sentBeforeStop: sentAtStop,
      lost: 3_000 - unique,
      duplicates: ids.length - unique,
      workerAlive: true,
    });
  }, 300_000);
});
