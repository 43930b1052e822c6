#!/usr/bin/env node
// bench/drain-cpu: bench/drain's protocol (POST /v1/batch in calls of 5 000, one release UPDATE,
// one worker with the `log` connector), reporting CPU time per job instead of only wall time:
// the api process and its database backends during the enqueue, the worker and the bench
// database's backends during the drain (from /proc/<pid>/stat). CPU time moves far less with the
// machine's load than wall time, so two builds or settings can be compared side by side.
//
//   npm run build && node bench/drain-cpu.mjs [--jobs 100000] [--worker-batch 1000] [--timeline] [--enqueue-only]
//   --worker-env '{"WORKER_BATCHES_IN_FLIGHT":"2"}'   extra environment for the worker
//   --timeline                                      worker and database CPU every 250 ms
// Linux only (/proc). The database's figure includes the release UPDATE, as the drain time does.
// The drain also reports the whole PostgreSQL cluster (autovacuum, WAL writer, checkpointer, and
// children that exited, through the postmaster's cutime) and the whole machine (/proc/stat).
import { readdirSync, readFileSync } from 'node:fs';
import { benchEnv, createBenchProject, drainWorkerEnv, enqueueThroughApi } from './drain.mjs';
import { arg, createBenchDatabase, ensureBuilt, flag, fmt, machine, startNotifyd } from './lib.mjs';

const JOBS = Number(arg('jobs', 100_000));
const WORKER_BATCH = arg('worker-batch', '1000');
const WORKER_ENV = JSON.parse(arg('worker-env', '{}'));
const CLOCK_TICKS_PER_SEC = 100; // USER_HZ on Linux

/** CPU time the whole machine has spent busy so far (all cores), in ms, from /proc/stat. */
function machineBusyMs() {
  // user nice system idle iowait irq softirq steal; guest time is already inside user and nice.
  const ticks = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1, 9).map(Number);
  const idle = ticks[3] + ticks[4]; // idle + iowait
  return ((ticks.reduce((a, b) => a + b, 0) - idle) * 1000) / CLOCK_TICKS_PER_SEC;
}

/** The fields of /proc/<pid>/stat after the command name (index 0 = state), or undefined once the process is gone. */
function statFields(pid) {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  } catch {
    return undefined;
  }
}

/** The last CPU time seen of each process: a process that exits keeps what it used (see cpuMs). */
const lastSeenCpu = new Map();

/** CPU time (user + system) a process has used so far, in ms; its last seen value once it is gone. */
function cpuMs(pid) {
  const fields = statFields(pid);
  if (!fields) return lastSeenCpu.get(pid) ?? 0;
  const ms = ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SEC;
  lastSeenCpu.set(pid, ms);
  return ms;
}

/**
 * CPU time of the whole PostgreSQL cluster the bench database lives on: the postmaster, its live
 * children (backends, autovacuum, WAL writer, checkpointer…) and, through the postmaster's
 * cutime/cstime, every child that has exited. A child that exits moves its whole time from the
 * live sum to cutime, so differences between two readings count each process once.
 */
function clusterCpuMs(postmasterPid) {
  const own = statFields(postmasterPid);
  if (!own) return 0;
  let ms = ((Number(own[11]) + Number(own[12]) + Number(own[13]) + Number(own[14])) * 1000) / CLOCK_TICKS_PER_SEC;
  for (const dir of readdirSync('/proc')) {
    if (!/^\d+$/.test(dir)) continue;
    const fields = statFields(dir);
    if (fields && Number(fields[1]) === postmasterPid)
      ms += ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SEC;
  }
  return ms;
}

ensureBuilt();
console.log(`bench/drain-cpu: ${fmt(JOBS)} jobs, worker batch ${WORKER_BATCH}; ${machine()}`);
const db = await createBenchDatabase();
const dbName = new URL(db.url).pathname.slice(1);
/** The backends of the bench database (PostgreSQL runs on this machine, so /proc sees them). */
const backends = async () =>
  (
    await db.pool.query(`SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`, [dbName])
  ).rows.map((r) => r.pid);
/** CPU used since `start` (pid → ms at start; pids that appeared later started at 0). */
const usedSince = (start) => [...start].reduce((sum, [pid, at]) => sum + cpuMs(pid) - at, 0);

console.log(`PostgreSQL ${db.version}`);
const common = benchEnv(db.url);
const apiProc = await startNotifyd({ ...common, NOTIFYD_ROLE: 'api' });
try {
  const project = await createBenchProject(db, apiProc.url, JOBS);
  const enqueueBackends = new Map((await backends()).map((pid) => [pid, cpuMs(pid)]));
  const apiAtStart = cpuMs(apiProc.pid);
  const enqueueSeconds = await enqueueThroughApi(apiProc.url, project.api_key, JOBS);
  for (const pid of await backends()) if (!enqueueBackends.has(pid)) enqueueBackends.set(pid, 0);
  console.log(
    `enqueue: ${fmt(JOBS / enqueueSeconds)} jobs/s | CPU per job: api process ${fmt(((cpuMs(apiProc.pid) - apiAtStart) * 1000) / JOBS, 1)} µs, ` +
      `database ${fmt((usedSince(enqueueBackends) * 1000) / JOBS, 1)} µs`,
  );

  // --enqueue-only: the enqueue's figures alone (about 3 s instead of 10).
  if (!flag('enqueue-only')) {
    await db.pool.query('CHECKPOINT');
    const worker = await startNotifyd({ ...common, ...drainWorkerEnv(100, WORKER_BATCH), ...WORKER_ENV });
    await new Promise((r) => setTimeout(r, 1500)); // let its boot-time work settle
    const drainBackends = new Map((await backends()).map((pid) => [pid, cpuMs(pid)]));
    // The cluster's postmaster: the parent of any of its backends.
    const postmasterPid = Number(statFields((await db.pool.query('SELECT pg_backend_pid() AS pid')).rows[0].pid)[1]);
    const clusterAtStart = clusterCpuMs(postmasterPid);
    const machineAtStart = machineBusyMs();
    const workerAtStart = cpuMs(worker.pid);
    const drainStart = performance.now();
    await db.pool.query(`UPDATE jobs SET scheduled_at = now(), run_at = now() WHERE status = 'pending'`);
    const releaseMs = performance.now() - drainStart;

    const timeline = [];
    let last = { at: performance.now(), worker: cpuMs(worker.pid), database: usedSince(drainBackends) };
    const sampler = setInterval(() => {
      const now = { at: performance.now(), worker: cpuMs(worker.pid), database: usedSince(drainBackends) };
      const share = (key) => fmt(((now[key] - last[key]) / (now.at - last.at)) * 100);
      timeline.push(
        `${fmt((now.at - drainStart) / 1000, 1)} s: worker ${share('worker')} %, database ${share('database')} %`,
      );
      last = now;
    }, 250);
    for (;;) {
      for (const pid of await backends()) if (!drainBackends.has(pid)) drainBackends.set(pid, 0);
      const { rows } = await db.pool.query(
        `SELECT EXISTS (SELECT 1 FROM jobs WHERE status IN ('pending','processing','retry')) AS busy`,
      );
      if (!rows[0].busy) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const drainSeconds = (performance.now() - drainStart) / 1000;
    const machineUsed = machineBusyMs() - machineAtStart;
    const allPostgresUsed = clusterCpuMs(postmasterPid) - clusterAtStart;
    clearInterval(sampler);
    if (flag('timeline')) for (const line of timeline) console.log(`  ${line}`);
    console.log(
      `drain: ${fmt(JOBS / drainSeconds)} jobs/s (release UPDATE ${fmt(releaseMs)} ms) | CPU per job: ` +
        `worker ${fmt(((cpuMs(worker.pid) - workerAtStart) * 1000) / JOBS, 1)} µs, database ${fmt((usedSince(drainBackends) * 1000) / JOBS, 1)} µs, ` +
        `the whole PostgreSQL cluster ${fmt((allPostgresUsed * 1000) / JOBS, 1)} µs, whole machine ${fmt((machineUsed * 1000) / JOBS, 1)} µs ` +
        `(${fmt((machineUsed / 1000 / drainSeconds) * 100)} % of one core)`,
    );
    await worker.stop();
  }
} finally {
  await apiProc.stop();
  await db.drop();
}
