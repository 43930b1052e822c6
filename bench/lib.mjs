// Shared helpers for the bench scripts: start notifyd processes from dist/, a throwaway
// database, RSS sampling, percentiles. Benchmarks are scripts, not tests: they print numbers.
import { createWriteStream } from 'node:fs';
import { spawn, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const ADMIN_KEY = `bench-admin-${randomBytes(8).toString('hex')}`;
/** A production start (DATABASE_URL, ADMIN_API_KEY) is refused without JWT_SECRET. */
export const JWT_SECRET = randomBytes(24).toString('hex');

export function arg(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
}
export const flag = (name) => process.argv.includes(`--${name}`);

export function ensureBuilt() {
  if (!existsSync(join(root, 'dist', 'src', 'cli.js')) || flag('build')) {
    execFileSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit' });
  }
}

/** A fresh database on the server (BENCH_DATABASE_URL, default the machine's PostgreSQL). */
export async function createBenchDatabase() {
  const server = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `notifyd_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  // The server's autovacuum goes with its version into every report: a server running without it
  // (this machine's CI PostgreSQL 15 does, conf.d/90-ci.conf) never vacuums the bench's tables.
  const autovacuum = (await admin.query('SHOW autovacuum')).rows[0].autovacuum;
  const version = `${(await admin.query('SHOW server_version')).rows[0].server_version}, autovacuum ${autovacuum}`;
  await admin.end();
  const url = new URL(server);
  url.pathname = `/${name}`;
  const pool = new pg.Pool({ connectionString: url.toString(), max: 4 });
  // An idle connection can be cut under the pool (the server terminating it, DROP DATABASE …
  // WITH (FORCE)); without a listener pg-pool's 'error' event would end the whole run. Seen
  // once at the end of a drain (18:45 UTC, 2026-11-30): say so and go on.
  pool.on('error', (err) => console.error(`bench: an idle connection to ${name} was lost (${err.message})`));
  return {
    url: url.toString(),
    version,
    autovacuum: autovacuum === 'on',
    pool,
    async drop() {
      await pool.end();
      const a = new pg.Client({ connectionString: server });
      await a.connect();
      await a.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await a.end();
    },
  };
}

/** Applies notifyd's migrations (`notifyd migrate` from a tree's dist/) to a bench database. */
export function migrateDatabase(url, dir = root) {
  execFileSync(process.execPath, [join(dir, 'dist', 'src', 'cli.js'), 'migrate'], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, DATABASE_URL: url },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

/**
 * Starts `notifyd serve` from a tree's dist/ (this one by default) as a child process; resolves
 * when it listens. keepLines false drops the output once it listens (a run under load would
 * otherwise keep every request log line in memory).
 */
export async function startNotifyd(
  env,
  { nodeArgs: ownArgs = [], dir = root, keepLines = true, label = 'notifyd' } = {},
) {
  // BENCH_NODE_ARGS: extra node flags for the notifyd processes (e.g. --cpu-prof, --trace-gc) when profiling a run.
  const nodeArgs = [...ownArgs, ...(process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean)];
  return startListening([...nodeArgs, join(dir, 'dist', 'src', 'cli.js'), 'serve'], {
    // LOG_PROVIDER_PRINT off: the drain measures the engine, not the console (the log provider prints each message by default).
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      ADMIN_API_KEY: ADMIN_KEY,
      JWT_SECRET,
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'info',
      LOG_PROVIDER_PRINT: 'false',
      ...env,
    },
    keepLines,
    label,
  });
}

/** Starts `node <args>` as a child process; resolves when it prints `listening on http://…`. */
export async function startListening(args, { env, keepLines = true, label = args.at(-1) }) {
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines = [];
  let keep = true;
  if (process.env.BENCH_CHILD_LOG) {
    child.stdout.pipe(createWriteStream(`${process.env.BENCH_CHILD_LOG}.${child.pid}.out`));
    child.stderr.pipe(createWriteStream(`${process.env.BENCH_CHILD_LOG}.${child.pid}.err`));
  }
  createInterface({ input: child.stderr }).on('line', (l) => keep && lines.push(l));
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${label} did not start:\n${lines.join('\n')}`)), 60_000);
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (keep) lines.push(line);
      const m = line.match(/listening on (http:\/\/[\d.:]+)/);
      if (m) {
        clearTimeout(timer);
        keep = keepLines;
        resolve(m[1]);
      }
    });
    child.on('exit', (code) => reject(new Error(`${label} exited (${code}):\n${lines.join('\n')}`)));
  });
  return {
    url,
    pid: child.pid,
    /** Every line the process printed so far (stdout and stderr; up to listening if keepLines is false). */
    lines,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      await new Promise((r) => child.on('exit', r));
    },
  };
}

/** Samples a process's resident memory (ps, KiB) every `ms` until stopped. */
export function sampleRss(pid, ms = 250) {
  const samples = [];
  const timer = setInterval(() => {
    try {
      samples.push(
        Number(
          execFileSync('ps', ['-o', 'rss=', '-p', String(pid)])
            .toString()
            .trim(),
        ) / 1024,
      );
    } catch {
      // process gone
    }
  }, ms);
  return {
    stop() {
      clearInterval(timer);
      return { idleMb: samples[0] ?? NaN, peakMb: Math.max(...samples) };
    },
  };
}

export async function api(url, path, key, body) {
  const res = await fetch(`${url}${path}`, {
    method: body ? 'POST' : 'GET',
    headers: { 'X-Api-Key': key, 'Content-Type': 'application/json' },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = await res.json();
  if (!res.ok) throw new Error(`${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

export const fmt = (n, digits = 0) =>
  Number(n).toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
export const machine = () => {
  const cpus = execFileSync('nproc').toString().trim();
  const mem = Math.round(
    Number(execFileSync('awk', ['/MemTotal/ {print $2}', '/proc/meminfo']).toString()) / 1024 / 1024,
  );
  return `${cpus} cores, ${mem} GiB, Node ${process.version}`;
};
