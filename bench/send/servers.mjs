// The servers bench/send compares, each on a fresh database of its own on the same PostgreSQL
// server: notifyd API processes (NOTIFYD_ROLE=api, log provider, no worker) from a built tree,
// or the bare endpoint (bare-endpoint.mjs) on a database migrated by this tree's migrations.
// Every process gets the statement-counting preload (count-queries.mjs); `processes` of them
// share one database and one project key.
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ADMIN_KEY, api, createBenchDatabase, migrateDatabase, root, startListening, startNotifyd } from '../lib.mjs';

const COUNT_QUERIES = join(root, 'bench', 'send', 'count-queries.mjs');
const BARE_ENDPOINT = join(root, 'bench', 'send', 'bare-endpoint.mjs');
let started = 0;

/** Starts one server of `kind` ('notifyd' from `dir`, or 'bare') with `processes` processes. */
export async function startServer({ name, kind, dir = root, env = {}, processes, poolSize, cpuProf }) {
  const db = await createBenchDatabase();
  const procs = [];
  const stopAll = async () => {
    for (const p of procs) await p.stop();
    await db.drop();
  };
  try {
    const key = kind === 'bare' ? await prepareBareDatabase(db) : undefined;
    for (let i = 0; i < processes; i++) {
      const countFile = join(tmpdir(), `notifyd-bench-send-${process.pid}-${started++}.json`);
      const profiling = cpuProf
        ? [
            '--cpu-prof',
            '--cpu-prof-dir',
            cpuProf,
            '--cpu-prof-name',
            `${name.replace(/\W+/g, '-')}-${i + 1}.cpuprofile`,
          ]
        : [];
      const counting = { BENCH_NOTIFYD_ROOT: dir, BENCH_QUERY_COUNT_FILE: countFile };
      const nodeArgs = [...profiling, '--import', COUNT_QUERIES];
      const proc =
        kind === 'bare'
          ? await startListening([...nodeArgs, BARE_ENDPOINT], {
              env: {
                PATH: process.env.PATH,
                HOME: process.env.HOME,
                DATABASE_URL: db.url,
                BARE_POOL_SIZE: String(poolSize),
                ...counting,
              },
              keepLines: false,
              label: `${name} ${i + 1}`,
            })
          : await startNotifyd(
              {
                LOG_LEVEL: 'info', // as bench/run.mjs: one request line per call is part of the cost
                DATABASE_URL: db.url,
                NOTIFYD_ROLE: 'api',
                EMAIL_PROVIDER: 'log',
                EMAIL_FROM: 'bench@example.invalid',
                DATABASE_MAX_CONNECTIONS: String(poolSize),
                ...env,
                ...counting,
              },
              // The first process migrates the database on boot; the others start after it.
              { nodeArgs, dir, keepLines: false, label: `${name} ${i + 1}` },
            );
      procs.push({ ...proc, counts: () => queryCounts(proc.pid, countFile), countFile });
    }
    return {
      name,
      kind,
      db,
      procs,
      key: key ?? (await notifydProject(procs[0].url)),
      async stop() {
        await stopAll();
        for (const p of procs) rmSync(p.countFile, { force: true });
      },
    };
  } catch (err) {
    await stopAll();
    throw err;
  }
}

/** notifyd: a project without an API rate limit of its own, and the subscriber of the 'subscriber' body. */
async function notifydProject(url) {
  const { project } = await api(url, '/v1/admin/projects', ADMIN_KEY, {
    id: 'bench',
    name: 'Bench',
    rate_limit_per_min: 10_000_000,
  });
  await api(url, '/v1/subscribers', project.api_key, { id: 'u1', email: 'u1@example.invalid' });
  return project.api_key;
}

/** The bare endpoint's database: notifyd's migrations (`notifyd migrate`), then a project row keyed as notifyd keys it. */
async function prepareBareDatabase(db) {
  migrateDatabase(db.url);
  const { generateProjectKey, hashKey, keyHint } = await import(
    join(root, 'dist', 'src', 'projects', 'auth', 'api-keys.js')
  );
  const key = generateProjectKey('bench');
  await db.pool.query(
    `INSERT INTO projects (id, name, api_key_hash, api_key_hint, rate_limit_per_min) VALUES ('bench', 'Bench', $1, $2, 10000000)`,
    [hashKey(key), keyHint(key)],
  );
  return key;
}

/** The process's node-postgres statements so far, by text (count-queries.mjs writes them on SIGUSR2). */
async function queryCounts(pid, countFile) {
  rmSync(countFile, { force: true });
  process.kill(pid, 'SIGUSR2');
  for (let i = 0; i < 100; i++) {
    try {
      return JSON.parse(readFileSync(countFile, 'utf8'));
    } catch {
      await new Promise((r) => setTimeout(r, 20));
    }
  }
  throw new Error('no query counts');
}
