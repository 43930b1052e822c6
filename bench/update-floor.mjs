#!/usr/bin/env node
// bench/update-floor: what the queue's row writes cost the database, per job, without the
// worker or the HTTP API around them — and what the "narrow state table" schema would save.
//
//   npm run build && node bench/update-floor.mjs [--jobs 100000] [--batch 1000] [--rounds 3]
//
// One backend runs, for 100 000 jobs scheduled in the future: the release (one UPDATE making
// them due), then claim + finalise in batches until none is left, serially. Its CPU time comes
// from /proc/<pid>/stat (PostgreSQL runs on this machine), so the figures move little with the
// machine's load. Two schemas, alternated round by round in fresh databases:
//   - shipped: the `jobs` table as migrated, with the shipped CLAIM_JOBS and MARK_SENT (dist/);
//   - narrow:  the design named as the next step for the 25 000 jobs/s drain (issue 9) — a
//     `job_states` table with only what the claim filters on and what changes (status, times,
//     attempts, provider fields) beside an insert-only `job_bodies` table (recipient, payload,
//     …). The claim updates the state row and reads the body by primary key; the finalise
//     updates the state row only. The enqueue writes both rows.
// The enqueue is one INSERT … SELECT generate_series per schema, to compare its database cost.
// Linux only (/proc).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { arg, createBenchDatabase, ensureBuilt, fmt, machine, root } from './lib.mjs';

const JOBS = Number(arg('jobs', 100_000));
const BATCH = Number(arg('batch', 1000));
const ROUNDS = Number(arg('rounds', 3));
const CLOCK_TICKS_PER_SEC = 100; // USER_HZ on Linux

ensureBuilt();
const { CLAIM_JOBS } = await import(join(root, 'dist/src/jobs/sql/claim.sql.js'));
const { MARK_SENT } = await import(join(root, 'dist/src/jobs/sql/finalise.sql.js'));

/** CPU time (user + system) a process has used so far, in ms. */
function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SEC;
}

// The narrow design: the columns the claim filters or orders on and every column a job's life
// changes, with the shipped table's indexes on them; the rest in an insert-only table. Left out,
// which favours it slightly: the rollup's dirty-hour trigger and the created_at BRIN index (each
// measured within the noise of the shipped table's figures, git history of docs/BENCHMARKS.md, 2026-11-30 "Evening").
const NARROW_SCHEMA = `
  CREATE TABLE job_bodies (
    id uuid PRIMARY KEY, subscriber_id text, recipient text NOT NULL, template_id text, topic text,
    payload jsonb NOT NULL DEFAULT '{}', max_attempts integer NOT NULL DEFAULT 5, idempotency_key text,
    created_at timestamptz NOT NULL DEFAULT now());
  CREATE TABLE job_states (
    id uuid PRIMARY KEY DEFAULT notifyd_uuid_v7(), project_id text NOT NULL, channel text NOT NULL,
    status text NOT NULL DEFAULT 'pending', priority smallint NOT NULL DEFAULT 50,
    scheduled_at timestamptz NOT NULL DEFAULT now(), run_at timestamptz NOT NULL DEFAULT now(),
    next_retry_at timestamptz, attempts integer NOT NULL DEFAULT 0, claimed_at timestamptz,
    provider text, provider_message_id text, error text, sent_at timestamptz, finished_at timestamptz,
    bounced_at timestamptz) WITH (fillfactor = 60);
  CREATE INDEX ON job_states (priority, run_at) WHERE status IN ('pending','retry');
  CREATE INDEX ON job_states (claimed_at) WHERE status = 'processing';
  CREATE INDEX ON job_states USING brin (finished_at);
  CREATE INDEX ON job_states USING hash (provider_message_id) WHERE provider_message_id IS NOT NULL;`;

/** The shipped statements, pointed at job_states; the claim reads the bodies of what it took. */
const narrowClaim = CLAIM_JOBS.text
  .replace(/\bjobs\b/g, 'job_states')
  .replace(/\)\s*UPDATE job_states j/, '), claimed AS (\n  UPDATE job_states j')
  .replace(
    /RETURNING[\s\S]*$/,
    `RETURNING j.id, j.project_id, j.channel, j.priority, j.attempts)
  SELECT c.*, b.subscriber_id, b.recipient, b.template_id, b.topic, b.payload, b.max_attempts, b.idempotency_key
    FROM claimed c JOIN job_bodies b USING (id)`,
  );
const narrowFinalise = MARK_SENT.text.replace(/UPDATE jobs j/, 'UPDATE job_states j');

const SCHEMAS = {
  shipped: {
    setup: '',
    enqueue: `INSERT INTO jobs (project_id, channel, subscriber_id, recipient, payload, scheduled_at, run_at)
              SELECT 'bench', 'email', 'sub_' || g, 'user' || g || '@example.invalid', '{"subject":"bench","body":"x"}', $2, $2
                FROM generate_series(1, $1) g`,
    release: `UPDATE jobs SET scheduled_at = now(), run_at = now() WHERE status = 'pending'`,
    claim: CLAIM_JOBS.text,
    finalise: MARK_SENT.text,
  },
  narrow: {
    setup: NARROW_SCHEMA,
    enqueue: `WITH s AS (
                INSERT INTO job_states (project_id, channel, scheduled_at, run_at)
                SELECT 'bench', 'email', $2, $2 FROM generate_series(1, $1) RETURNING id)
              INSERT INTO job_bodies (id, subscriber_id, recipient, payload)
              SELECT id, 'sub_' || n, 'user' || n || '@example.invalid', '{"subject":"bench","body":"x"}'
                FROM (SELECT id, row_number() OVER () AS n FROM s) numbered`,
    release: `UPDATE job_states SET scheduled_at = now(), run_at = now() WHERE status = 'pending'`,
    claim: narrowClaim,
    finalise: narrowFinalise,
  },
};

async function measure(schema) {
  const db = await createBenchDatabase();
  try {
    execFileSync(process.execPath, [join(root, 'dist/src/cli.js'), 'migrate'], {
      env: { ...process.env, DATABASE_URL: db.url },
      stdio: 'ignore',
    });
    const client = new pg.Client(db.url);
    await client.connect();
    try {
      if (schema.setup) await client.query(schema.setup);
      const pid = (await client.query('SELECT pg_backend_pid() AS pid')).rows[0].pid;
      const timed = async (work) => {
        const at = cpuMs(pid);
        await work();
        return cpuMs(pid) - at;
      };
      const enqueue = await timed(() => client.query(schema.enqueue, [JOBS, new Date(Date.now() + 86_400_000)]));
      await client.query('CHECKPOINT'); // the release and the drain of every variant start after a checkpoint (full-page images alike)
      const release = await timed(() => client.query(schema.release));
      let claim = 0;
      let finalise = 0;
      let done = 0;
      for (;;) {
        let rows = [];
        claim += await timed(async () => ({ rows } = await client.query(schema.claim, [BATCH, [], []])));
        if (rows.length === 0) break;
        done += rows.length;
        const outcomes = {};
        for (const row of rows) outcomes[row.id] = { a: row.attempts, p: 'log', m: `log_${row.id}` };
        finalise += await timed(() => client.query(schema.finalise, [outcomes]));
      }
      if (done !== JOBS) throw new Error(`drained ${done} of ${JOBS} jobs`);
      const perJob = (ms) => (ms * 1000) / JOBS;
      return {
        server: db.version,
        enqueue: perJob(enqueue),
        release: perJob(release),
        claim: perJob(claim),
        finalise: perJob(finalise),
      };
    } finally {
      await client.end();
    }
  } finally {
    await db.drop();
  }
}

console.log(`bench/update-floor: ${fmt(JOBS)} jobs, batch ${BATCH}, ${ROUNDS} rounds; ${machine()}`);
console.log('figures: CPU time of the one backend running the statements');
const results = { shipped: [], narrow: [] };
for (let round = 1; round <= ROUNDS; round++) {
  for (const name of round % 2 ? ['shipped', 'narrow'] : ['narrow', 'shipped']) {
    const r = await measure(SCHEMAS[name]);
    if (results.shipped.length + results.narrow.length === 0) console.log(`PostgreSQL ${r.server}`);
    results[name].push(r);
    console.log(
      `round ${round} ${name.padEnd(7)} backend CPU per job: enqueue ${fmt(r.enqueue, 1)} µs, release ${fmt(r.release, 1)} µs, ` +
        `claim ${fmt(r.claim, 1)} µs, finalise ${fmt(r.finalise, 1)} µs, release + claim + finalise ${fmt(r.release + r.claim + r.finalise, 1)} µs`,
    );
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const summary = (name, key) =>
  median(results[name].map((r) => (key === 'drain' ? r.release + r.claim + r.finalise : r[key])));
console.log('\nmedians (µs of backend CPU per job)    shipped   narrow   narrow/shipped');
for (const key of ['enqueue', 'release', 'claim', 'finalise', 'drain']) {
  const [s, n] = [summary('shipped', key), summary('narrow', key)];
  console.log(
    `${(key === 'drain' ? 'release + claim + finalise' : key).padEnd(38)} ${fmt(s, 1).padStart(7)} ${fmt(n, 1).padStart(8)}   ${fmt(n / s, 2)}×`,
  );
}
