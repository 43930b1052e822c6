#!/usr/bin/env node
// bench/digest: how long GET /v1/admin/digest takes over a large queue table. Loads N jobs
// (default 100 000) spread over the last 7 days — 90 % sent (with delivered/bounced stamps),
// 4 % failed with a dozen distinct causes, 2 % retrying, 2 % pending, 2 % cancelled — over 5
// projects, VACUUM ANALYZE, then times the digest for each window, JSON and Markdown, from
// one API process (HTTP round trip included). Reports p50/p95/max per window.
// The rows are back-dated, so they land in periods the rollup (job_outcome_hourly) has already
// rolled as empty: the bench marks those periods dirty, as the jobs trigger does for a late
// change, and waits for the periodic rollup to re-roll them before timing (it reports how long
// that took). `--from-jobs` times the digest before that, every hour read from jobs.
// `--drained`: instead, N jobs released and finalised in batches of 1 000 (claim, then sent) a
// moment before the first call, as `npm run bench` measures the digest right after its drain;
// the first five calls are reported on their own (the first rolls the drained jobs).
//
//   npm run build && node bench/digest.mjs [--jobs 100000] [--runs 30] [--drained]
//   BENCH_DATABASE_URL=postgres://… picks the server (default: the machine's PostgreSQL).
import { ADMIN_KEY, api, arg, createBenchDatabase, ensureBuilt, fmt, machine, startNotifyd } from './lib.mjs';

const JOBS = Number(arg('jobs', 100_000));
const RUNS = Number(arg('runs', 30));
const WINDOWS = ['1h', '6h', '24h', '7d', '30d'];
const FROM_JOBS = process.argv.includes('--from-jobs');
const DRAINED = process.argv.includes('--drained');

const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

async function main() {
  ensureBuilt();
  const db = await createBenchDatabase();
  // Retention 0 (keep everything): with the default 7 days, the oldest back-dated hour would
  // count as possibly purged and the rollup would leave it as rolled (empty).
  const proc = await startNotifyd({
    DATABASE_URL: db.url,
    NOTIFYD_ROLE: 'api',
    EMAIL_PROVIDER: 'log',
    SMS_PROVIDER: 'log',
    DATABASE_MAX_CONNECTIONS: '8',
    JOB_RETENTION_DAYS: '0',
    FAILED_JOB_RETENTION_DAYS: '0',
  });
  try {
    for (let p = 1; p <= 5; p++)
      await api(proc.url, '/v1/admin/projects', ADMIN_KEY, {
        id: `bench${p}`,
        name: `Bench ${p}`,
        channels: ['email', 'sms', 'in_app'],
      });
    const loadStart = performance.now();
    if (DRAINED) await loadDrained(db);
    else
      await db.pool.query(
        `INSERT INTO jobs (project_id, channel, recipient, status, priority, provider, error, attempts,
                         created_at, scheduled_at, run_at, sent_at, finished_at, delivered_at, bounced_at, next_retry_at)
       SELECT 'bench' || (1 + g % 5), CASE WHEN g % 4 = 0 THEN 'sms' ELSE 'email' END, 'u' || g || '@example.invalid', s.status,
              CASE WHEN g % 10 = 0 THEN 10 WHEN g % 3 = 0 THEN 80 ELSE 50 END, 'log',
              CASE WHEN s.status IN ('failed','retry') THEN 'provider error ' || (400 + g % 12) || ' for request ' || gen_random_uuid() END,
              CASE WHEN s.status = 'retry' THEN 2 ELSE 1 END,
              t.at, t.at, CASE WHEN s.status IN ('pending','retry') THEN now() + interval '1 minute' ELSE t.at END,
              CASE WHEN s.status = 'sent' THEN t.at + (g % 5000) * interval '1 millisecond' END,
              CASE WHEN s.status IN ('sent','failed','cancelled') THEN t.at + interval '1 second' END,
              CASE WHEN s.status = 'sent' AND g % 50 <> 0 THEN t.at + interval '5 seconds' END,
              CASE WHEN s.status = 'sent' AND g % 50 = 0 THEN t.at + interval '5 seconds' END,
              CASE WHEN s.status = 'retry' THEN now() + interval '1 minute' END
         FROM generate_series(1, $1) g
        CROSS JOIN LATERAL (SELECT now() - (7 * 86400.0 * (1 - g::float8 / $1)) * interval '1 second' AS at) t
        CROSS JOIN LATERAL (SELECT CASE WHEN g % 100 < 90 THEN 'sent' WHEN g % 100 < 94 THEN 'failed' WHEN g % 100 < 96 THEN 'retry'
                                        WHEN g % 100 < 98 THEN 'pending' ELSE 'cancelled' END AS status) s`,
        [JOBS],
      );
    if (!DRAINED) await db.pool.query('VACUUM ANALYZE jobs');
    const loadSeconds = (performance.now() - loadStart) / 1000;
    let rollup = DRAINED
      ? 'drained a moment before the first call: the first read rolls them'
      : 'every hour read from jobs (--from-jobs)';
    // The 5-minute period of each finish (the rollup's grain in the open hours; a mark in a whole hour stands for the hour).
    if (!DRAINED)
      await db.pool.query(
        `INSERT INTO job_rollup_dirty (hour) SELECT DISTINCT to_timestamp(floor(extract(epoch FROM finished_at) / 300) * 300) FROM jobs WHERE finished_at IS NOT NULL ON CONFLICT DO NOTHING`,
      );
    const firstCalls = [];
    if (DRAINED) {
      for (let i = 0; i < 5; i++) {
        const start = performance.now();
        const res = await fetch(`${proc.url}/v1/admin/digest?window=24h`, { headers: { 'X-Api-Key': ADMIN_KEY } });
        await res.text();
        firstCalls.push(performance.now() - start);
      }
    }
    if (!FROM_JOBS && !DRAINED) {
      const rollStart = performance.now();
      for (;;) {
        const {
          rows: [left],
        } = await db.pool.query('SELECT count(*)::int AS n FROM job_rollup_dirty');
        if (left.n === 0) break;
        if (performance.now() - rollStart > 120_000)
          throw new Error('the rollup did not re-roll the loaded hours within 2 minutes');
        await new Promise((r) => setTimeout(r, 200));
      }
      const {
        rows: [size],
      } = await db.pool.query(`SELECT count(*)::int AS n, count(DISTINCT hour)::int AS hours FROM job_outcome_hourly`);
      await db.pool.query('VACUUM ANALYZE job_outcome_hourly');
      rollup = `rollup: ${fmt(size.n)} rows over ${size.hours} periods, re-rolled by the periodic task within ${fmt((performance.now() - rollStart) / 1000, 1)} s of marking (tick every 15 s)`;
    }

    const results = [];
    for (const window of WINDOWS) {
      for (const format of ['json', 'markdown']) {
        const times = [];
        for (let i = 0; i < RUNS + 3; i++) {
          const start = performance.now();
          const res = await fetch(`${proc.url}/v1/admin/digest?window=${window}&format=${format}`, {
            headers: { 'X-Api-Key': ADMIN_KEY },
          });
          await res.text();
          if (!res.ok) throw new Error(`digest ${window}: ${res.status}`);
          if (i >= 3) times.push(performance.now() - start); // the first calls warm caches and plans
        }
        times.sort((a, b) => a - b);
        results.push({ window, format, p50: pct(times, 50), p95: pct(times, 95), max: times[times.length - 1] });
      }
    }
    // The machine's state: a bare count(*) over the same table, timed the same way.
    const baseline = [];
    for (let i = 0; i < RUNS; i++) {
      const start = performance.now();
      await db.pool.query('SELECT count(*) FROM jobs');
      baseline.push(performance.now() - start);
    }
    baseline.sort((a, b) => a - b);
    const {
      rows: [size],
    } = await db.pool.query(`SELECT pg_total_relation_size('jobs') AS bytes`);
    console.log(
      `\nbench/digest — ${fmt(JOBS)} jobs over 7 days (${fmt(Number(size.bytes) / 1024 / 1024, 1)} MiB), loaded in ${fmt(loadSeconds, 1)} s; PostgreSQL ${db.version}; ${machine()}`,
    );
    console.log(
      `${RUNS} timed calls per row, HTTP round trip included; for scale, SELECT count(*) FROM jobs: p50 ${fmt(pct(baseline, 50), 1)} ms, load average ${(await import('node:os')).loadavg()[0].toFixed(1)}`,
    );
    console.log(
      `${rollup}${DRAINED ? `; the first five 24h calls after the drain: ${firstCalls.map((t) => fmt(t, 1)).join(', ')} ms (median ${fmt([...firstCalls].sort((a, b) => a - b)[2], 1)})` : ''}\n`,
    );
    console.log('| window | format | p50 ms | p95 ms | max ms |');
    console.log('|---|---|---|---|---|');
    for (const r of results)
      console.log(`| ${r.window} | ${r.format} | ${fmt(r.p50, 1)} | ${fmt(r.p95, 1)} | ${fmt(r.max, 1)} |`);
  } finally {
    await proc.stop();
    await db.drop();
  }
}

/**
 * --drained: N email jobs released and drained the way one worker finalises them (claim a batch
 * of 1 000, then mark it sent), all within the current hour, without VACUUM or ANALYZE since —
 * the table as `npm run bench` leaves it when it reads the digest.
 */
async function loadDrained(db) {
  await db.pool.query(
    `INSERT INTO jobs (project_id, channel, recipient, status, priority, scheduled_at, run_at, payload)
     SELECT 'bench' || (1 + g % 5), 'email', 'u' || g || '@example.invalid', 'pending', 80, '2030-01-01', '2030-01-01', '{"subject":"bench","body":"x"}'
       FROM generate_series(1, $1) g`,
    [JOBS],
  );
  await db.pool.query('VACUUM ANALYZE jobs');
  await db.pool.query(`UPDATE jobs SET scheduled_at = now(), run_at = now()`);
  for (let done = 0; done < JOBS; done += 1_000) {
    await db.pool.query(
      `UPDATE jobs SET status = 'processing', attempts = 1, claimed_at = now() WHERE id IN (SELECT id FROM jobs WHERE status = 'pending' ORDER BY priority, run_at LIMIT 1000)`,
    );
    await db.pool.query(
      `UPDATE jobs SET status = 'sent', sent_at = now(), finished_at = now(), provider = 'log', provider_message_id = 'm' WHERE status = 'processing'`,
    );
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
