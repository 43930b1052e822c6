// Wake-up latency at low load: from the enqueue's commit to the worker's claim, read from the
// table itself (claimed_at − created_at, both the database clock). The API and the worker are
// separate processes, so a worker learns of a job through a signal or its poll, never through
// the in-process wake-up; the "one process" row shows that path for comparison. The lane is
// unpaced (SMS_RATE_PER_SEC=0): with SMS's default 10/s a due job waits up to 100 ms for its
// lane's next token, which is pacing doing its job, not the wake-up this measures.
import pg from 'pg';
import { ADMIN_KEY, api as call, migrateDatabase, startNotifyd } from '../lib.mjs';
import { BASE_ENV } from './api-throughput.mjs';
import { benchProject, percentile } from './stats.mjs';

const MODES = [
  { name: 'signals on, poll 500 ms (API and worker processes)', split: true, env: { SIGNALS_ENABLED: 'true' } },
  { name: 'signals off, poll 500 ms (API and worker processes)', split: true, env: { SIGNALS_ENABLED: 'false' } },
  {
    name: 'signals off, poll 100 ms (API and worker processes)',
    split: true,
    env: { SIGNALS_ENABLED: 'false', WORKER_POLL_INTERVAL_MS: '100' },
  },
  { name: 'signals on, one process (in-process wake-up)', split: false, env: { SIGNALS_ENABLED: 'true' } },
  // The first mode without the sender's coalescing gap: how much of its latency that step is.
  {
    name: 'signals on, no flush gap (SIGNAL_FLUSH_MIN_GAP_MS=0, API and worker processes)',
    split: true,
    env: { SIGNALS_ENABLED: 'true', SIGNAL_FLUSH_MIN_GAP_MS: '0' },
  },
];

export async function wakeupLatency(databaseUrl, { jobs = 300, ratePerSec = 20 } = {}) {
  // Run alone (`run.mjs wakeup`) the database is fresh: the TRUNCATE below needs the schema.
  migrateDatabase(databaseUrl);
  const db = new pg.Client({ connectionString: databaseUrl });
  db.on('error', () => undefined);
  await db.connect();
  const results = [];
  for (const mode of MODES) {
    await db.query('TRUNCATE jobs CASCADE');
    const common = {
      ...BASE_ENV,
      DATABASE_URL: databaseUrl,
      WORKER_POLL_INTERVAL_MS: '500',
      SMS_RATE_PER_SEC: '0',
      ...mode.env,
    };
    const api = await startNotifyd({ ...common, NOTIFYD_ROLE: mode.split ? 'api' : 'all' });
    const worker = mode.split ? await startNotifyd({ ...common, NOTIFYD_ROLE: 'worker' }) : undefined;
    try {
      const key = await benchProject(call, api.url, ADMIN_KEY, `wake-${results.length}`);
      const gap = 1000 / ratePerSec;
      for (let i = 0; i < jobs; i++) {
        const res = await fetch(`${api.url}/v1/send`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-api-key': key },
          body: JSON.stringify({ channels: ['sms'], to: '+33600000000', body: 'wake' }),
        });
        if (res.status !== 200) throw new Error(`send: ${res.status}`);
        // Spread with jitter so that requests do not fall in step with the poll.
        await new Promise((r) => setTimeout(r, gap * (0.5 + Math.random())));
      }
      for (let i = 0; i < 100; i++) {
        const {
          rows: [{ left }],
        } = await db.query(`SELECT count(*)::int AS left FROM jobs WHERE claimed_at IS NULL`);
        if (left === 0) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      const { rows } = await db.query(
        `SELECT extract(epoch FROM claimed_at - created_at) * 1000 AS ms FROM jobs WHERE claimed_at IS NOT NULL ORDER BY 1`,
      );
      const ms = rows.map((r) => Number(r.ms));
      const row = {
        mode: mode.name,
        jobs: ms.length,
        p50: percentile(ms, 50),
        p99: percentile(ms, 99),
        max: ms.at(-1),
      };
      process.stderr.write(
        `wake-up ${row.mode}: p50 ${row.p50.toFixed(1)} ms p99 ${row.p99.toFixed(1)} ms (${row.jobs} jobs)\n`,
      );
      results.push(row);
    } finally {
      await worker?.stop();
      await api.stop();
    }
  }
  results.push(await commitBaseline(db));
  await db.end();
  return results;
}

/** What one single-row commit costs on this machine right now: the floor under every row above. */
async function commitBaseline(db) {
  await db.query(
    `CREATE TABLE IF NOT EXISTS bench_commit_probe (id bigserial PRIMARY KEY, at timestamptz DEFAULT now())`,
  );
  const ms = [];
  for (let i = 0; i < 200; i++) {
    const start = performance.now();
    await db.query(`INSERT INTO bench_commit_probe DEFAULT VALUES`);
    ms.push(performance.now() - start);
    await new Promise((r) => setTimeout(r, 10));
  }
  ms.sort((a, b) => a - b);
  const row = {
    mode: 'for reference: one single-row INSERT + commit, client round trip',
    jobs: ms.length,
    p50: percentile(ms, 50),
    p99: percentile(ms, 99),
    max: ms.at(-1),
  };
  process.stderr.write(`baseline commit: p50 ${row.p50.toFixed(1)} ms p99 ${row.p99.toFixed(1)} ms\n`);
  return row;
}
