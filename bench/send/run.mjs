#!/usr/bin/env node
// bench/send: POST /v1/send round trips (issue 9). Starts one API process (NOTIFYD_ROLE=api,
// log provider, no worker) per tree to compare, counts the SQL statements one send costs
// (node-postgres calls, by statement text: a preload patches the process's pg Client), then
// runs autocannon against each tree in turn, alternating within each round so that machine
// noise hits both alike. Each tree gets its own fresh database on the same server.
//
//   npm run build && node bench/send/run.mjs                      # this tree only
//   node bench/send/run.mjs --before /tmp/notifyd-main            # a built checkout vs this one
//   --seconds 10 --rounds 3 --connections 8
//   --cpu-prof DIR                                               # V8 CPU profiles of the API processes
//   BENCH_DATABASE_URL=postgres://… picks the server (default: the machine's PostgreSQL).
import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';
import { ADMIN_KEY, api, arg, createBenchDatabase, ensureBuilt, fmt, machine, root } from '../lib.mjs';

const SECONDS = Number(arg('seconds', 10));
const ROUNDS = Number(arg('rounds', 3));
const CONNECTIONS = Number(arg('connections', 8));
const COUNTED_SENDS = 50;
const before = arg('before');
const cpuProf = arg('cpu-prof');
const trees = [...(before ? [['before', before]] : []), ['this tree', root]];

/** The bodies measured: issue 9's (a bare address), and one to a subscriber (preferences, caps). */
const BODIES = {
  to: { channel: 'email', to: 'load@example.invalid', subject: 'load', body: 'x' },
  subscriber: { channel: 'email', subscriber_id: 'u1', subject: 'load', body: 'x' },
};

async function start(name, dir) {
  const db = await createBenchDatabase();
  const countFile = join(tmpdir(), `notifyd-bench-send-${process.pid}-${trees.findIndex(([n]) => n === name)}.json`);
  const profiling = cpuProf ? ['--cpu-prof', '--cpu-prof-dir', cpuProf, '--cpu-prof-name', `${name.replace(/\W+/g, '-')}.cpuprofile`] : [];
  const child = spawn(process.execPath, [...profiling, '--import', join(root, 'bench', 'send', 'count-queries.mjs'), join(dir, 'dist', 'src', 'cli.js'), 'serve'], {
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      ADMIN_API_KEY: ADMIN_KEY,
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'info', // as bench/run.mjs: one request line per call is part of the cost
      DATABASE_URL: db.url,
      NOTIFYD_ROLE: 'api',
      EMAIL_PROVIDER: 'log',
      EMAIL_FROM: 'bench@example.invalid',
      DATABASE_MAX_CONNECTIONS: '20',
      BENCH_NOTIFYD_ROOT: dir,
      BENCH_QUERY_COUNT_FILE: countFile,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let lines = [];
  createInterface({ input: child.stderr }).on('line', (l) => lines?.push(l));
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`notifyd (${name}) did not start:\n${lines.join('\n')}`)), 60_000);
    createInterface({ input: child.stdout }).on('line', (line) => {
      lines?.push(line);
      const m = line.match(/listening on (http:\/\/[\d.:]+)/);
      if (m) {
        clearTimeout(timer);
        lines = undefined; // request logs are read and dropped from here on
        resolve(m[1]);
      }
    });
    child.on('exit', (code) => reject(new Error(`notifyd (${name}) exited (${code}):\n${lines?.join('\n')}`)));
  });
  const { project } = await api(url, '/v1/admin/projects', ADMIN_KEY, { id: 'bench', name: 'Bench', rate_limit_per_min: 10_000_000 });
  await api(url, '/v1/subscribers', project.api_key, { id: 'u1', email: 'u1@example.invalid' });
  const counts = async () => {
    rmSync(countFile, { force: true });
    child.kill('SIGUSR2');
    for (let i = 0; i < 100; i++) {
      try {
        return JSON.parse(readFileSync(countFile, 'utf8'));
      } catch {
        await new Promise((r) => setTimeout(r, 20));
      }
    }
    throw new Error('no query counts');
  };
  return {
    name,
    url,
    key: project.api_key,
    counts,
    async stop() {
      child.kill('SIGTERM');
      await new Promise((r) => child.on('exit', r));
      rmSync(countFile, { force: true });
      await db.drop();
    },
  };
}

/** SQL statements per send: COUNTED_SENDS sequential sends, counts before and after. */
async function statementsPerSend(app, body) {
  for (let i = 0; i < 5; i++) await api(app.url, '/v1/send', app.key, body); // warm caches, as under load
  const first = await app.counts();
  for (let i = 0; i < COUNTED_SENDS; i++) await api(app.url, '/v1/send', app.key, body);
  const last = await app.counts();
  const per = Object.entries(last)
    .map(([sql, n]) => [sql, (n - (first[sql] ?? 0)) / COUNTED_SENDS])
    .filter(([, n]) => n > 0)
    .sort((a, b) => b[1] - a[1]);
  return { total: per.reduce((s, [, n]) => s + n, 0), per };
}

function load(app, body) {
  return autocannon({
    url: `${app.url}/v1/send`,
    connections: CONNECTIONS,
    duration: SECONDS,
    method: 'POST',
    headers: { 'x-api-key': app.key, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

ensureBuilt();
console.log(`bench/send: ${CONNECTIONS} connections, ${ROUNDS} rounds × ${SECONDS} s per tree and body; ${machine()}`);
const apps = [];
try {
  for (const [name, dir] of trees) apps.push(await start(name, dir));
  for (const app of apps) {
    for (const [shape, body] of Object.entries(BODIES)) {
      const { total, per } = await statementsPerSend(app, body);
      console.log(`\n${app.name}, body '${shape}': ${fmt(total, 2)} SQL statements per send`);
      for (const [sql, n] of per) console.log(`  ${fmt(n, 2)} × ${sql}`);
    }
  }
  const results = new Map();
  for (let round = 0; round < ROUNDS; round++) {
    for (const [shape, body] of Object.entries(BODIES)) {
      for (const app of round % 2 ? [...apps].reverse() : apps) {
        const r = await load(app, body);
        const key = `${app.name}|${shape}`;
        results.set(key, [...(results.get(key) ?? []), { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.non2xx + r.errors }]);
        process.stderr.write(`round ${round + 1} ${key}: ${fmt(r.requests.average)} req/s, p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms\n`);
      }
    }
  }
  console.log(`\n| tree | body | req/s | p50 ms | p99 ms | errors |  (median of ${ROUNDS} rounds)\n|---|---|---:|---:|---:|---:|`);
  for (const [key, runs] of results) {
    const [tree, shape] = key.split('|');
    console.log(`| ${tree} | ${shape} | ${fmt(median(runs.map((r) => r.rps)))} | ${median(runs.map((r) => r.p50))} | ${median(runs.map((r) => r.p99))} | ${runs.reduce((s, r) => s + r.errors, 0)} |`);
  }
} finally {
  for (const app of apps) await app.stop();
}
