#!/usr/bin/env node
// bench/churn: queue churn over a long run. N jobs flow through one notifyd worker (log
// connector, pacing off) in waves inserted straight into the table while it drains, so the
// table sees what production sees: an insert and two updates per job, finished rows piling up.
// Every interval it reports throughput, dead tuples on `jobs` (and when autovacuum last ran),
// the table's size, and the latency of the claim's index probe (the claim's own WHERE and
// ORDER BY, read-only, so measuring does not take jobs away from the worker).
//
//   npm run build && node bench/churn.mjs [--jobs 1000000] [--wave 20000] [--interval 10] [--rate 5000]
// --rate: insert at that many jobs a second instead of as fast as the worker drains, so the run
// lasts long enough (several autovacuum_naptime minutes) to show vacuum keeping up.
import { ADMIN_KEY, api, arg, createBenchDatabase, ensureBuilt, fmt, machine, startNotifyd } from './lib.mjs';

const JOBS = Number(arg('jobs', 1_000_000));
const WAVE = Number(arg('wave', 20_000));
const INTERVAL_S = Number(arg('interval', 10));
const RATE = Number(arg('rate', 0));

ensureBuilt();
console.log(
  `bench/churn: ${fmt(JOBS)} jobs ${RATE > 0 ? `inserted at ${fmt(RATE)} a second` : `in waves of ${fmt(WAVE)}`}; ${machine()}`,
);
const db = await createBenchDatabase();
console.log(`PostgreSQL ${db.version}`);
if (!db.autovacuum) {
  console.log(
    "warning: this server runs with autovacuum off: the dead tuples below are never reclaimed, whatever the jobs table's thresholds (turn it on to measure them)",
  );
}
const env = {
  DATABASE_URL: db.url,
  EMAIL_PROVIDER: 'log',
  EMAIL_FROM: 'bench@example.invalid',
  EMAIL_RATE_PER_SEC: '0',
  WORKER_BATCH_SIZE: '1000',
  WORKER_POLL_INTERVAL_MS: '100',
};
const notifyd = await startNotifyd(env);
try {
  await api(notifyd.url, '/v1/admin/projects', ADMIN_KEY, { id: 'churn', name: 'Churn' });
  const probe = async () => {
    const t = performance.now();
    await db.pool.query(
      `SELECT id FROM jobs WHERE status IN ('pending','retry') AND run_at <= now() ORDER BY priority, run_at LIMIT 100`,
    );
    return performance.now() - t;
  };
  let inserted = 0;
  const started = performance.now();
  let nextReport = started + INTERVAL_S * 1000;
  let probes = [];
  let lastSent = 0;
  let lastAt = started;
  console.log(
    '| t (s) | sent | jobs/s | backlog | dead tuples | live tuples | last autovacuum (count) | table MB | claim probe p50 / max (ms) |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (;;) {
    // The backlog count reads the whole table: with --rate it is only needed to report and to stop
    // (a scan every 200 ms would add CPU, and page pruning, that the run is not about).
    const reportDue = performance.now() >= nextReport;
    const needBacklog = RATE === 0 || inserted >= JOBS || reportDue;
    const q = needBacklog
      ? (
          await db.pool.query(
            `SELECT count(*) FILTER (WHERE status IN ('pending','processing','retry'))::int AS backlog FROM jobs`,
          )
        ).rows[0]
      : { backlog: undefined };
    // Keep about two waves queued (steady pressure without an unbounded backlog), or keep to --rate.
    const n =
      RATE > 0
        ? Math.min(JOBS, Math.floor((RATE * (performance.now() - started)) / 1000)) - inserted
        : q.backlog < WAVE * 2
          ? Math.min(WAVE, JOBS - inserted)
          : 0;
    if (n > 0) {
      await db.pool.query(
        `INSERT INTO jobs (project_id, channel, recipient, payload) SELECT 'churn', 'email', 'u' || g || '@example.invalid', '{"subject":"churn","body":"x"}' FROM generate_series(1, $1) g`,
        [n],
      );
      inserted += n;
    }
    probes.push(await probe());
    if (reportDue || (inserted >= JOBS && q.backlog === 0)) {
      const {
        rows: [s],
      } = await db.pool.query(`
        SELECT (SELECT count(*)::int FROM jobs WHERE status = 'sent') AS sent, n_dead_tup::int AS dead, n_live_tup::int AS live,
               coalesce(to_char(greatest(last_autovacuum, last_vacuum), 'HH24:MI:SS'), 'never') || ' (' || autovacuum_count || ')' AS vacuumed,
               pg_total_relation_size('jobs') / 1048576.0 AS mb
          FROM pg_stat_user_tables WHERE relname = 'jobs'`);
      const elapsed = (performance.now() - started) / 1000;
      probes.sort((a, b) => a - b);
      console.log(
        `| ${fmt(elapsed)} | ${fmt(s.sent)} | ${fmt((s.sent - lastSent) / ((performance.now() - lastAt) / 1000))} | ${fmt(q.backlog)} | ${fmt(s.dead)} | ${fmt(s.live)} | ${s.vacuumed} | ${fmt(s.mb)} | ${fmt(probes[probes.length >> 1], 2)} / ${fmt(probes[probes.length - 1], 2)} |`,
      );
      lastSent = s.sent;
      lastAt = performance.now();
      probes = [];
      nextReport += INTERVAL_S * 1000;
      if (inserted >= JOBS && q.backlog === 0) break;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
} finally {
  await notifyd.stop();
  await db.drop();
}
