#!/usr/bin/env node
// bench/send: POST /v1/send against its floor (issues 9 and 19). Starts the bare endpoint
// (bare-endpoint.mjs: Fastify + pg, one INSERT per send) and notifyd's API processes
// (NOTIFYD_ROLE=api, log provider, no worker) from this tree and, with --before, from another
// built tree; each server on a fresh database of the same PostgreSQL server. It counts the SQL
// statements one send costs (node-postgres calls by statement text: a preload patches each
// process's pg Client), then runs autocannon at each client count with one and with two API
// processes, the servers alternating within each round (the order flips every round) so that
// machine noise hits them alike; pg_stat_activity is sampled every 100 ms during each run.
//
//   npm run build && node bench/send/run.mjs             # bare vs this tree, 8/32/64 clients, 1 and 2 processes
//   node bench/send/run.mjs --before /tmp/notifyd-main   # … and a built checkout
//   --seconds 5 --rounds 3 --clients 8,32,64 --api-processes 1,2 --bodies to,subscriber --pool 20
//   --connections N                                      # old spelling of --clients N
//   --cpu-prof DIR                                       # V8 CPU profiles of every server process
//   --env K=V,…  --before-env K=V,…                      # settings of this tree's / the --before tree's notifyd
//   node bench/send/run.mjs --before . --before-env ENQUEUE_INSERTS_IN_FLIGHT=0   # one setting against another
//   BENCH_DATABASE_URL=postgres://… picks the server (default: the machine's PostgreSQL).
// Run it with nothing else on the machine: a run that starts above load 1 does not count.
import { loadavg } from 'node:os';
import autocannon from 'autocannon';
import { api, arg, ensureBuilt, fmt, machine, root } from '../lib.mjs';
import { sampleActivity } from './activity.mjs';
import { summary, waitsReport } from './report.mjs';
import { startServer } from './servers.mjs';

const loadAtStart = loadavg()[0];
const positiveInts = (name, fallback) => {
  const values = String(arg(name, fallback)).split(',').map(Number);
  if (!values.every((n) => Number.isInteger(n) && n > 0))
    throw new Error(`--${name}: positive integers separated by commas`);
  return values;
};
const [SECONDS] = positiveInts('seconds', 5);
const [ROUNDS] = positiveInts('rounds', 3);
const [POOL] = positiveInts('pool', 20); // DATABASE_MAX_CONNECTIONS of each notifyd process, pool max of each bare one
const CLIENTS = positiveInts('clients', arg('connections', '8,32,64'));
const API_PROCESSES = positiveInts('api-processes', '1,2');
const COUNTED_SENDS = 50;
const before = arg('before');
/** Extra environment for notifyd processes: `--env K=V,K=V` (this tree), `--before-env` (the --before tree; it may be this tree too, to compare settings). */
const envOf = (name) =>
  Object.fromEntries(
    String(arg(name, ''))
      .split(',')
      .filter(Boolean)
      .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
  );
const cpuProf = arg('cpu-prof');

/** The bodies measured: issue 9's (a bare address), and one to a subscriber (preferences, caps). */
const ALL_BODIES = {
  to: { channel: 'email', to: 'load@example.invalid', subject: 'load', body: 'x' },
  subscriber: { channel: 'email', subscriber_id: 'u1', subject: 'load', body: 'x' },
};
const BODIES = Object.fromEntries(
  arg('bodies', 'to,subscriber')
    .split(',')
    .map((name) => {
      if (!ALL_BODIES[name]) throw new Error(`--bodies: '${name}' is not one of ${Object.keys(ALL_BODIES).join(', ')}`);
      return [name, ALL_BODIES[name]];
    }),
);
const SERVERS = [
  { name: 'bare', kind: 'bare' },
  ...(before ? [{ name: 'notifyd before', kind: 'notifyd', dir: before, env: envOf('before-env') }] : []),
  { name: 'notifyd', kind: 'notifyd', dir: root, env: envOf('env') },
];

/** SQL statements per send: COUNTED_SENDS sequential sends, counts before and after. */
async function statementsPerSend(server, body) {
  const proc = server.procs[0];
  for (let i = 0; i < 5; i++) await api(proc.url, '/v1/send', server.key, body); // warm caches, as under load
  const first = await proc.counts();
  for (let i = 0; i < COUNTED_SENDS; i++) await api(proc.url, '/v1/send', server.key, body);
  const last = await proc.counts();
  const per = Object.entries(last)
    .map(([sql, n]) => [sql, (n - (first[sql] ?? 0)) / COUNTED_SENDS])
    .filter(([, n]) => n > 0)
    .sort((a, b) => b[1] - a[1]);
  return { total: per.reduce((s, [, n]) => s + n, 0), per };
}

/** autocannon's options for POST /v1/send to one process of a server. */
const sendRequest = (proc, server, body) => ({
  url: `${proc.url}/v1/send`,
  method: 'POST',
  headers: { 'x-api-key': server.key, 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

/**
 * One load run: `clients` connections split across the first `processes` processes (one
 * autocannon per process, in parallel). req/s is the sum of each instance's 2xx answers per
 * second; the latencies are autocannon's histograms of all instances merged.
 */
async function load(server, body, clients, processes) {
  const procs = server.procs.slice(0, processes);
  const shares = procs.map((_, i) => Math.floor(clients / procs.length) + (i < clients % procs.length ? 1 : 0));
  await server.db.pool.query('TRUNCATE jobs CASCADE'); // every run starts from the same empty table
  const sampler = sampleActivity(server.db.pool);
  const runs = await Promise.all(
    procs
      .map((proc, i) => [proc, shares[i]])
      .filter(([, connections]) => connections > 0)
      .map(([proc, connections]) =>
        autocannon({ ...sendRequest(proc, server, body), connections, duration: SECONDS, skipAggregateResult: true }),
      ),
  );
  const activity = await sampler.stop();
  const merged = autocannon.aggregateResult(runs, { url: procs[0].url, connections: clients, duration: SECONDS });
  return {
    rps: runs.reduce((s, r) => s + r['2xx'] / r.duration, 0),
    p50: merged.latency.p50,
    p99: merged.latency.p99,
    errors: merged.non2xx + merged.errors,
    activity,
  };
}

console.log(`bench/send: 1-minute load average at start ${loadAtStart.toFixed(2)}`);
if (loadAtStart > 1) console.log('LOAD ABOVE 1 AT START: this run does not count');
ensureBuilt();
const processes = Math.max(...API_PROCESSES);
const runCount = ROUNDS * Object.keys(BODIES).length * CLIENTS.length * API_PROCESSES.length * SERVERS.length;
console.log(
  `${SERVERS.map((s) => s.name).join(' / ')}; clients ${CLIENTS.join(', ')}; API processes ${API_PROCESSES.join(', ')}; bodies ${Object.keys(BODIES).join(', ')}; ` +
    `${ROUNDS} rounds × ${SECONDS} s (${runCount} runs, ~${fmt((runCount * (SECONDS + 0.5)) / 60, 1)} min of load); pool ${POOL} per process; ${machine()}`,
);
const servers = [];
try {
  for (const s of SERVERS) servers.push(await startServer({ ...s, processes, poolSize: POOL, cpuProf }));
  console.log(`PostgreSQL ${servers[0].db.version}`);
  for (const server of servers) {
    for (const [shape, body] of Object.entries(BODIES)) {
      const { total, per } = await statementsPerSend(server, body);
      console.log(`\n${server.name}, body '${shape}': ${fmt(total, 2)} SQL statements per send`);
      for (const [sql, n] of per) console.log(`  ${fmt(n, 2)} × ${sql}`);
      // The other processes' caches (project key, subscriber, …) are warmed as the first one's were.
      for (const proc of server.procs.slice(1))
        for (let i = 0; i < 5; i++) await api(proc.url, '/v1/send', server.key, body);
    }
    // Warm-up under load, not measured: JIT, pools filled, plan caches (prepared statements settle on
    // a generic plan after five runs per connection), 3 s per process and body: with 1 s, the first
    // measured runs of notifyd (far more code to optimise than the bare endpoint) were 15-30 % slower.
    for (const proc of server.procs)
      for (const body of Object.values(BODIES))
        await autocannon({ ...sendRequest(proc, server, body), connections: 8, duration: 3 });
  }
  /** `${body}|${clients}|${processes}|${server}` → one result per round, in round order. */
  const results = new Map();
  for (let round = 0; round < ROUNDS; round++) {
    for (const [shape, body] of Object.entries(BODIES)) {
      for (const clients of CLIENTS) {
        for (const n of API_PROCESSES) {
          for (const server of round % 2 ? [...servers].reverse() : servers) {
            const r = await load(server, body, clients, n);
            const key = `${shape}|${clients}|${n}|${server.name}`;
            results.set(key, [...(results.get(key) ?? []), r]);
            const a = r.activity;
            process.stderr.write(
              `round ${round + 1} ${shape} c=${clients} api×${n} ${server.name}: ${fmt(r.rps)} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms, ${r.errors} errors; ` +
                `lock waits ${a.active ? fmt((100 * a.lock) / a.active, 1) : 'n/a'} % of ${a.active} active samples\n`,
            );
          }
        }
      }
    }
  }
  const cells = {
    bodies: Object.keys(BODIES),
    clients: CLIENTS,
    processes: API_PROCESSES,
    servers: servers.map((s) => s.name),
    rounds: ROUNDS,
  };
  console.log(`\n${summary(results, cells)}`);
  console.log(`\n${waitsReport(results, cells)}`);
} finally {
  for (const server of servers) await server.stop();
}
const loadAtEnd = loadavg()[0];
console.log(`\n1-minute load average: ${loadAtStart.toFixed(2)} at start, ${loadAtEnd.toFixed(2)} at end`);
if (loadAtStart > 1) console.log('LOAD ABOVE 1 AT START: this run does not count');
