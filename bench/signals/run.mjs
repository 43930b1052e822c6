// bench/signals: everything docs/BENCHMARKS.md § Signals reports, printed as Markdown.
//   node bench/signals/run.mjs [api] [wakeup] [ceiling] [--build]
//   BENCH_DATABASE_URL=postgres://… (default: the machine's PostgreSQL on 127.0.0.1:5432)
//   BENCH_EMBEDDED=1: an embedded PostgreSQL 18 of its own instead (durable defaults), so that
//   no other client's commits share its WAL flushes
//   BENCH_DURATION_SECS (default 10), BENCH_ROUNDS (default 3)
import { loadavg } from 'node:os';
import { createBenchDatabase, ensureBuilt, machine } from '../lib.mjs';
import { apiThroughput } from './api-throughput.mjs';
import { commitCeiling } from './commit-ceiling.mjs';
import { startEmbeddedServer } from './embedded-server.mjs';
import { wakeupLatency } from './wakeup-latency.mjs';

const named = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const parts = named.length ? named : ['api', 'wakeup', 'ceiling'];
ensureBuilt();
const embedded = process.env.BENCH_EMBEDDED === '1' ? await startEmbeddedServer() : undefined;
if (embedded) process.env.BENCH_DATABASE_URL = embedded.url;
const duration = Number(process.env.BENCH_DURATION_SECS ?? 10);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const db = await createBenchDatabase();
const out = [];
const print = (line = '') => out.push(line);
print(
  `Machine: ${machine()}; PostgreSQL ${db.version}${embedded ? ' (embedded, fsync on)' : ''}; load average at start ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}.`,
);
try {
  if (parts.includes('api')) {
    const rows = await apiThroughput(db.url, { durationSec: duration, rounds });
    print();
    print(`POST /v1/send, NOTIFYD_ROLE=api, log provider, median of ${rounds} × ${duration} s runs:`);
    print();
    print('| clients | signals on: req/s | p50 / p99 ms | signals off: req/s | p50 / p99 ms | on ÷ off |');
    print('|---:|---:|---:|---:|---:|---:|');
    for (const r of rows) {
      print(
        `| ${r.clients} | ${Math.round(r.on.rps)} | ${r.on.p50} / ${r.on.p99} | ${Math.round(r.off.rps)} | ${r.off.p50} / ${r.off.p99} | ${(r.ratio * 100).toFixed(0)} % |`,
      );
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
    const cell = (v) =>
      `${v.commitsPerSec}${v.commitsPerWalFlush === null ? '' : ` (${v.commitsPerWalFlush.toFixed(1)})`}`;
    for (const r of rows) {
      print(
        `| ${r.clients} | ${cell(r.none)} | ${cell(r.in_tx)} | ${cell(r.after_commit)}, ${r.after_commit.notifyFlushes} flushes | ${((r.after_commit.commitsPerSec / r.none.commitsPerSec) * 100).toFixed(0)} % |`,
      );
    }
    print();
    print(
      `Most sessions waiting on Lock:object at once (NOTIFY in the transaction): ${rows.map((r) => `${r.clients} clients → ${r.in_tx.maxLockWaits}`).join(', ')}; without NOTIFY: ${rows.map((r) => r.none.maxLockWaits).join(', ')}.`,
    );
  }
} finally {
  await db.drop();
  await embedded?.stop();
}
print(
  `Load average at end: ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}.`,
);
process.stdout.write(`${out.join('\n')}\n`);
