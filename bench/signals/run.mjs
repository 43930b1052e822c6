// bench/signals: everything docs/BENCHMARKS.md § Signals reports, printed as Markdown.
//   npm run build && node bench/signals/run.mjs [api] [wakeup] [ceiling]
//   BENCH_DATABASE_URL=postgres://… to measure on a given server (default: embedded PostgreSQL 18)
//   BENCH_DURATION_SECS (default 10), BENCH_ROUNDS (default 3)
import { cpus } from 'node:os';
import { apiThroughput } from './api-throughput.mjs';
import { commitCeiling } from './commit-ceiling.mjs';
import { openBenchDatabase } from './server.mjs';
import { wakeupLatency } from './wakeup-latency.mjs';

const parts = process.argv.slice(2).length ? process.argv.slice(2) : ['api', 'wakeup', 'ceiling'];
const duration = Number(process.env.BENCH_DURATION_SECS ?? 10);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const db = await openBenchDatabase();
const out = [];
const print = (line = '') => out.push(line);
print(`Machine: ${cpus().length} × ${cpus()[0].model}, Node ${process.version}; PostgreSQL ${db.server}.`);
try {
  if (parts.includes('api')) {
    const rows = await apiThroughput(db.url, { durationSec: duration, rounds });
    print();
    print(`POST /v1/send, NOTIFYD_ROLE=api, log provider, median of ${rounds} × ${duration} s runs:`);
    print();
    print('| clients | signals on: req/s | p50 / p99 ms | signals off: req/s | p50 / p99 ms | on ÷ off |');
    print('|---:|---:|---:|---:|---:|---:|');
    for (const r of rows) {
      print(`| ${r.clients} | ${Math.round(r.on.rps)} | ${r.on.p50} / ${r.on.p99} | ${Math.round(r.off.rps)} | ${r.off.p50} / ${r.off.p99} | ${(r.ratio * 100).toFixed(0)} % |`);
    }
    const bad = rows.reduce((n, r) => n + r.on.bad + r.off.bad, 0);
    print();
    print(`Non-2xx answers or errors over all runs: ${bad}.`);
  }
  if (parts.includes('wakeup')) {
    const rows = await wakeupLatency(db.url);
    print();
    print('Wake-up latency, commit → claim (claimed_at − created_at), 300 sends at ~20/s:');
    print();
    print('| mode | p50 ms | p99 ms | max ms |');
    print('|---|---:|---:|---:|');
    for (const r of rows) print(`| ${r.mode} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ${r.max.toFixed(1)} |`);
  }
  if (parts.includes('ceiling')) {
    const rows = await commitCeiling(db.url, { durationSec: Math.min(duration, 8) });
    print();
    print('Single-row commits/s (commits per WAL flush), two listening sessions:');
    print();
    print('| clients | no NOTIFY | NOTIFY in the transaction | after-commit sender (2 ms) | after-commit ÷ none |');
    print('|---:|---:|---:|---:|---:|');
    const cell = (v) => `${v.commitsPerSec}${v.commitsPerWalFlush === null ? '' : ` (${v.commitsPerWalFlush.toFixed(1)})`}`;
    for (const r of rows) {
      print(`| ${r.clients} | ${cell(r.none)} | ${cell(r.in_tx)} | ${cell(r.after_commit)}, ${r.after_commit.notifyFlushes} flushes | ${((r.after_commit.commitsPerSec / r.none.commitsPerSec) * 100).toFixed(0)} % |`);
    }
    print();
    print(`Most sessions waiting on Lock:object at once (NOTIFY in the transaction): ${rows.map((r) => `${r.clients} clients → ${r.in_tx.maxLockWaits}`).join(', ')}; without NOTIFY: ${rows.map((r) => r.none.maxLockWaits).join(', ')}.`);
  }
} finally {
  await db.drop();
}
process.stdout.write(`${out.join('\n')}\n`);
