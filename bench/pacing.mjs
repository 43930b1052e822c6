#!/usr/bin/env node
// bench/pacing: does a lane's configured rate hold across replicas, and what does sharing the
// bucket in PostgreSQL cost? For 1, 2 and 4 worker processes on one lane (SMS through a
// loopback HTTP provider, one message per call), it queues more jobs than the lane can send,
// lets the workers run, and reports the rate the provider observed (after the first 2 s, and
// the peak second) against the configured rate and its bound (rate × T + burst in any window
// of T s), and against what per-replica buckets would allow (N × rate). Then one run with 100-message calls metered per request (Resend's shape).
//
// Database cost of pacing, from PostgreSQL's own counters on pacing_lanes: every token take,
// pause and adaptive write is one UPDATE (n_tup_upd), every read of the pauses one sequential
// scan of the tiny table (seq_scan). Reported per 1 000 messages, beside all the transactions
// the database committed for the run (claim, finalise, pacing…).
//
//   npm run build && node bench/pacing.mjs [--rate 50] [--seconds 20] [--replicas 1,2,4]
//   BENCH_DATABASE_URL=postgres://… picks the server (default: the machine's PostgreSQL).
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { arg, createBenchDatabase, ensureBuilt, fmt, machine, root } from './lib.mjs';

const RATE = Number(arg('rate', 50));
const SECONDS = Number(arg('seconds', 20));
const REPLICAS = String(arg('replicas', '1,2,4')).split(',').map(Number);
const WARMUP_SECONDS = 2; // the first burst is allowed by design; the steady rate is measured after it

/** A provider on loopback that accepts everything and stamps each call. */
async function startProvider() {
  const calls = [];
  const server = createServer(async (req, res) => {
    const chunks = [];
    for await (const c of req) chunks.push(c);
    const { messages } = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    calls.push({
      sentAt: Number(req.headers['x-notifyd-sent-at']),
      at: Date.now(),
      pid: req.headers['x-notifyd-pid'],
      messages: messages.length,
    });
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ results: messages.map((_, i) => ({ ok: true, id: `b${calls.length}_${i}` })) }));
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${server.address().port}/send`,
    calls,
    stop: () => new Promise((r) => server.close(r)),
  };
}

/** A worker process running the built notifyd with the test gateway connector (test/fixtures). */
async function startWorker(databaseUrl, gateway, env) {
  const child = spawn(process.execPath, [join(root, 'test', 'fixtures', 'notifyd-process.mjs')], {
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATABASE_URL: databaseUrl,
      NOTIFYD_ROLE: 'worker',
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'warn',
      ADMIN_API_KEY: 'bench-admin-key-0123456789abcdef',
      JWT_SECRET: 'bench-jwt-secret-0123456789abcdef',
      DATABASE_MAX_CONNECTIONS: '4',
      SMS_PROVIDER: 'gateway',
      WORKER_POLL_INTERVAL_MS: '100',
      NOTIFYD_TEST_GATEWAY: JSON.stringify(gateway),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines = [];
  createInterface({ input: child.stderr }).on('line', (l) => lines.push(l));
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`worker did not start:\n${lines.join('\n')}`)), 60_000);
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (line.startsWith('{"ready":true')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.on('exit', (code) => reject(new Error(`worker exited (${code}):\n${lines.join('\n')}`)));
  });
  return { pid: child.pid, stop: () => new Promise((r) => (child.kill('SIGTERM'), child.on('exit', r))) };
}

/** Most messages sent in any 1 s window (by the workers' send stamps). */
function peakSecond(calls) {
  const sorted = [...calls].sort((a, b) => a.sentAt - b.sentAt);
  let best = 0;
  for (let i = 0, j = 0, inside = 0; i < sorted.length; i++) {
    while (j < sorted.length && sorted[j].sentAt < sorted[i].sentAt + 1000) inside += sorted[j++].messages;
    best = Math.max(best, inside);
    inside -= sorted[i].messages;
  }
  return best;
}

async function run({ replicas, rate, batchMax, meters }) {
  const db = await createBenchDatabase();
  const provider = await startProvider();
  const workers = [];
  try {
    const gateway = { url: provider.url, channel: 'sms', batchMax, meters };
    const env = {
      SMS_RATE_PER_SEC: String(rate),
      PACING_BURST_SECS: '1',
      WORKER_BATCH_SIZE: String(Math.max(50, batchMax * 2)),
    };
    for (let i = 0; i < replicas; i++) workers.push(await startWorker(db.url, gateway, env)); // in turn: migrations run once
    const messagesPerSecond = meters === 'messages' ? rate : rate * batchMax;
    const jobs = Math.ceil(messagesPerSecond * (SECONDS + 5) + messagesPerSecond * 2);
    await db.pool.query(`INSERT INTO projects (id, name) VALUES ('bench', 'Bench')`);
    const before = await counters(db);
    await db.pool.query(
      `INSERT INTO jobs (project_id, channel, recipient, priority, payload)
       SELECT 'bench', 'sms', '+3370' || lpad(g::text, 7, '0'), 50, '{"body":"x"}'::jsonb FROM generate_series(1, $1) g`,
      [jobs],
    );
    while (provider.calls.length === 0) await new Promise((r) => setTimeout(r, 20));
    const start = Math.min(...provider.calls.map((c) => c.sentAt));
    await new Promise((r) => setTimeout(r, SECONDS * 1000 - (Date.now() - start) + 500));
    await Promise.all(workers.map((w) => w.stop()));
    workers.length = 0;
    await new Promise((r) => setTimeout(r, 700)); // let the servers' statistics settle
    const after = await counters(db);

    const inRun = provider.calls.filter((c) => c.sentAt < start + SECONDS * 1000);
    const steady = inRun.filter((c) => c.sentAt >= start + WARMUP_SECONDS * 1000);
    const sentMessages = provider.calls.reduce((n, c) => n + c.messages, 0);
    const pacingStatements = after.updates - before.updates + (after.scans - before.scans);
    return {
      replicas,
      configured: messagesPerSecond,
      observed: steady.reduce((n, c) => n + c.messages, 0) / (SECONDS - WARMUP_SECONDS),
      peak: peakSecond(inRun),
      // GCRA bound: rate × T + burst in any window of T seconds (burst = 1 s of rate).
      averageBound: messagesPerSecond + messagesPerSecond / (SECONDS - WARMUP_SECONDS),
      bound: messagesPerSecond * 2,
      perReplicaBuckets: messagesPerSecond * replicas,
      processes: new Set(inRun.map((c) => c.pid)).size,
      calls: provider.calls.length,
      messages: sentMessages,
      pacingPer1000: (pacingStatements / sentMessages) * 1000,
      takesPer1000: ((after.updates - before.updates) / sentMessages) * 1000,
      readsPer1000: ((after.scans - before.scans) / sentMessages) * 1000,
      transactionsPer1000: ((after.commits - before.commits) / sentMessages) * 1000,
      postgres: db.version,
    };
  } finally {
    await Promise.all(workers.map((w) => w.stop()));
    await provider.stop();
    await db.drop();
  }
}

async function counters(db) {
  const {
    rows: [t],
  } = await db.pool.query(
    `SELECT n_tup_upd AS updates, seq_scan AS scans FROM pg_stat_user_tables WHERE relname = 'pacing_lanes'`,
  );
  const {
    rows: [d],
  } = await db.pool.query(`SELECT xact_commit AS commits FROM pg_stat_database WHERE datname = current_database()`);
  return { updates: Number(t?.updates ?? 0), scans: Number(t?.scans ?? 0), commits: Number(d.commits) };
}

ensureBuilt();
console.log(`bench/pacing: ${SECONDS} s per run, burst 1 s; ${machine()}`);
const results = [];
const scenarios = [
  ...REPLICAS.map((replicas) => ({ replicas, rate: RATE, batchMax: 1, meters: 'requests' })),
  { replicas: 2, rate: 10, batchMax: 100, meters: 'requests' },
];
for (const scenario of scenarios) {
  const r = await run(scenario);
  results.push({ ...scenario, ...r });
  const shape = scenario.batchMax === 1 ? '1 msg/call' : `${scenario.batchMax} msgs/call, ${scenario.rate} calls/s`;
  console.log(
    `${r.replicas} replica(s), ${shape}: configured ${fmt(r.configured)} msg/s | observed ${fmt(r.observed, 1)} msg/s over ${SECONDS - WARMUP_SECONDS} s ` +
      `(bound ${fmt(r.averageBound, 1)}), peak second ${fmt(r.peak)} (bound ${fmt(r.bound)}) | per-replica buckets would allow ${fmt(r.perReplicaBuckets)}/s | ${r.processes} processes sent | ` +
      `pacing ${fmt(r.pacingPer1000, 0)} statements per 1 000 messages (${fmt(r.takesPer1000, 0)} updates, ${fmt(r.readsPer1000, 0)} pause reads; ` +
      `${fmt(r.transactionsPer1000, 0)} transactions in all) | PostgreSQL ${r.postgres}`,
  );
}
if (process.argv.includes('--json')) console.log(JSON.stringify(results));
