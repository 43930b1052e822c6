#!/usr/bin/env node
// bench/drain: the seed paper's protocol (§5.1). N jobs enqueued through POST /v1/batch in
// calls of 5 000 with a future scheduled_at, released by one UPDATE, drained by one worker
// process with the `log` connector; then again with batchMax 1. Reports accepted jobs/s,
// drain jobs/s, worker RSS (sampled every 250 ms) and sent_at − scheduled_at percentiles.
//
//   npm run build && node bench/drain.mjs [--jobs 100000] [--call 5000] [--worker-batch 1000]
//   BENCH_DATABASE_URL=postgres://… picks the server (default: the machine's PostgreSQL).
import {
  ADMIN_KEY,
  api,
  arg,
  createBenchDatabase,
  ensureBuilt,
  fmt,
  machine,
  sampleRss,
  startNotifyd,
} from './lib.mjs';

const DEFAULT_JOBS = Number(arg('jobs', 100_000));
const CALL = Number(arg('call', 5_000));
const WORKER_BATCH = arg('worker-batch', '1000');

const RELEASE_AT = '2030-01-01T00:00:00Z';
/** Backlog jobs are due later than the measured ones, so they sit in the claim index throughout. */
const BACKLOG_AT = '2031-01-01T00:00:00Z';

/** The worker of the protocol: one process, `log` connector taking batchMax per call, pacing off. */
export const drainWorkerEnv = (batchMax, workerBatch) => ({
  NOTIFYD_ROLE: 'worker',
  WORKER_BATCH_SIZE: String(workerBatch),
  WORKER_POLL_INTERVAL_MS: '100',
  LOG_CONNECTOR_BATCH_MAX: String(batchMax),
  EMAIL_RATE_PER_SEC: '0',
});

/** The environment every process of the protocol shares (the bench database, the `log` email connector). */
export const benchEnv = (databaseUrl) => ({
  DATABASE_URL: databaseUrl,
  EMAIL_PROVIDER: 'log',
  EMAIL_FROM: 'bench@example.invalid',
  DATABASE_MAX_CONNECTIONS: '20',
});

/** The bench project (no inbound rate limit) and `jobs` subscribers u1…uN, each with an email. */
export async function createBenchProject(db, apiUrl, jobs) {
  const { project } = await api(apiUrl, '/v1/admin/projects', ADMIN_KEY, {
    id: 'bench',
    name: 'Bench',
    rate_limit_per_min: 10_000_000,
  });
  await db.pool.query(
    `INSERT INTO subscribers (project_id, id, email) SELECT 'bench', 'u' || g, 'u' || g || '@example.invalid' FROM generate_series(1, $1) g`,
    [jobs],
  );
  return project;
}

/** Step 1 of the protocol: one email job per subscriber through POST /v1/batch in calls of CALL, due at `at`; returns the seconds it took. */
export async function enqueueThroughApi(apiUrl, apiKey, jobs, at = RELEASE_AT) {
  const started = performance.now();
  for (let from = 1; from <= jobs; from += CALL) {
    const ids = Array.from({ length: Math.min(CALL, jobs - from + 1) }, (_, i) => `u${from + i}`);
    await api(apiUrl, '/v1/batch', apiKey, {
      channel: 'email',
      subscribers: ids,
      subject: 'bench',
      body: 'x',
      scheduled_at: at,
    });
  }
  return (performance.now() - started) / 1000;
}

/**
 * One drain: JOBS through POST /v1/batch, released together, drained by one worker whose
 * connector takes `batchMax` messages per call. `backlog` more pending jobs, due later, stay
 * in the queue throughout (the claim must not slow down because of them).
 */
export async function runDrain(batchMax, JOBS = DEFAULT_JOBS, { backlog = 0, afterDrain } = {}) {
  const db = await createBenchDatabase();
  const common = benchEnv(db.url);
  const apiProc = await startNotifyd({ ...common, NOTIFYD_ROLE: 'api' });
  try {
    const project = await createBenchProject(db, apiProc.url, JOBS);
    // 1. Enqueue through the API, in the future so that nothing drains yet.
    const enqueueSeconds = await enqueueThroughApi(apiProc.url, project.api_key, JOBS);
    if (backlog > 0) {
      await db.pool.query(
        `INSERT INTO jobs (project_id, channel, subscriber_id, recipient, payload, priority, scheduled_at, run_at)
         SELECT project_id, channel, subscriber_id, recipient, payload, priority, $2, $2
           FROM (SELECT * FROM jobs LIMIT $1) j, generate_series(1, ceil($3::float8 / $1)::int) g LIMIT $3`,
        [JOBS, BACKLOG_AT, backlog],
      );
      await db.pool.query('VACUUM ANALYZE jobs');
    }

    // 2. One worker; release everything with one UPDATE; wait for the drain.
    const worker = await startNotifyd({ ...common, ...drainWorkerEnv(batchMax, WORKER_BATCH) });
    const rss = sampleRss(worker.pid);
    await new Promise((r) => setTimeout(r, 1000)); // idle baseline
    const drainStart = performance.now();
    await db.pool.query(
      `UPDATE jobs SET scheduled_at = now(), run_at = now() WHERE status = 'pending' AND run_at = $1`,
      [RELEASE_AT],
    );
    const releaseSeconds = (performance.now() - drainStart) / 1000;
    for (;;) {
      // EXISTS, not count(*): polling must not scan the backlog every 50 ms and slow the drain it measures.
      const { rows } = await db.pool.query(
        `SELECT EXISTS (SELECT 1 FROM jobs WHERE status IN ('pending','processing','retry') AND run_at < $1) AS busy`,
        [BACKLOG_AT],
      );
      if (!rows[0].busy) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const drainSeconds = (performance.now() - drainStart) / 1000;
    const memory = rss.stop();
    await worker.stop();
    const extra = afterDrain ? await afterDrain({ db, apiUrl: apiProc.url, projectKey: project.api_key }) : {};
    const {
      rows: [lat],
    } = await db.pool.query(`
      SELECT count(*)::int AS sent,
             percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM sent_at - scheduled_at)) AS p50,
             percentile_cont(0.99) WITHIN GROUP (ORDER BY extract(epoch FROM sent_at - scheduled_at)) AS p99
        FROM jobs WHERE status = 'sent'`);
    const {
      rows: [{ total }],
    } = await db.pool.query(`SELECT count(*)::int AS total FROM jobs`);
    const {
      rows: [size],
    } = await db.pool.query(`SELECT pg_total_relation_size('jobs') AS bytes`);
    return {
      batchMax,
      postgres: db.version,
      sent: lat.sent,
      enqueueJobsPerSec: JOBS / enqueueSeconds,
      drainJobsPerSec: lat.sent / drainSeconds,
      drainSeconds,
      releaseSeconds,
      rssIdleMb: memory.idleMb,
      rssPeakMb: memory.peakMb,
      p50: Number(lat.p50),
      p99: Number(lat.p99),
      bytesPerJob: Number(size.bytes) / total,
      backlog,
      ...extra,
    };
  } finally {
    await apiProc.stop();
    await db.drop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  ensureBuilt();
  const JOBS = DEFAULT_JOBS;
  console.log(
    `bench/drain: ${fmt(JOBS)} jobs, /v1/batch calls of ${fmt(CALL)}, worker batch ${WORKER_BATCH}; ${machine()}`,
  );
  const results = [];
  for (const batchMax of [100, 1]) {
    const r = await runDrain(batchMax);
    results.push(r);
    console.log(
      `batchMax ${String(batchMax).padStart(3)}: POST /v1/batch ${fmt(r.enqueueJobsPerSec)} jobs/s accepted | drain ${fmt(r.drainJobsPerSec)} jobs/s ` +
        `(${fmt(r.drainSeconds, 2)} s) | worker RSS idle ${fmt(r.rssIdleMb)} MB, peak ${fmt(r.rssPeakMb)} MB | sent_at − scheduled_at p50 ${fmt(r.p50, 2)} s, p99 ${fmt(r.p99, 2)} s | ` +
        `${fmt(r.bytesPerJob)} B/job | PostgreSQL ${r.postgres}`,
    );
  }
  if (process.argv.includes('--json')) console.log(JSON.stringify(results));
}
