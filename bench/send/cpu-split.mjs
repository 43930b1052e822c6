// Where the CPU of one send goes: runs one server (bare or notifyd) under autocannon and reads
// /proc for the CPU time of the server process, of all PostgreSQL processes and of this process
// (autocannon) over the run. Prints µs of CPU per answered request for each.
// It also counts the SQL statements the server sent per answered request under that load
// (concurrent sends share inserts and signal flushes, so fewer than one send alone costs).
//   node bench/send/cpu-split.mjs [--kind notifyd|bare] [--clients 8] [--seconds 8] [--env K=V,K=V]
//   --statements                    the statements per request by text
//   --dir /abs/path/to/built/tree   notifyd from another built checkout (A/B: run both, alternating)
import { readFileSync, readdirSync } from 'node:fs';
import autocannon from 'autocannon';
import { startServer } from './servers.mjs';

const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : dflt;
};
const kind = arg('kind', 'notifyd');
const clients = Number(arg('clients', '8'));
const seconds = Number(arg('seconds', '8'));
const env = Object.fromEntries(
  String(arg('env', ''))
    .split(',')
    .filter(Boolean)
    .map((p) => [p.slice(0, p.indexOf('=')), p.slice(p.indexOf('=') + 1)]),
);
const TICK = 100; // clock ticks per second on Linux

const cpuOf = (pid) => {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(f[11]) + Number(f[12])) / TICK; // utime + stime, seconds
  } catch {
    return 0;
  }
};
const perPid = new Map();
const sysOf = (pid) => {
  try {
    return Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')[12]) / TICK;
  } catch {
    return 0;
  }
};
const postgresCpu = () => {
  let total = 0;
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      if (readFileSync(`/proc/${pid}/comm`, 'utf8').trim().startsWith('postgres')) {
        const c = cpuOf(pid);
        total += c;
        const title = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
        perPid.set(pid, { title, delta: c - (perPid.get(pid)?.last ?? c), last: c });
      }
    } catch {}
  }
  return total;
};
const body = { channel: 'email', to: 'load@example.invalid', subject: 'load', body: 'x' };
const dir = arg('dir');
const server = await startServer({
  name: kind,
  kind,
  env,
  processes: 1,
  poolSize: 20,
  cpuProf: arg('cpu-prof'),
  ...(dir ? { dir } : {}),
});
const proc = server.procs[0];
const req = {
  url: `${proc.url}/v1/send`,
  method: 'POST',
  headers: { 'x-api-key': server.key, 'content-type': 'application/json' },
  body: JSON.stringify(body),
};
await autocannon({ ...req, connections: clients, duration: 1 });
// pg backends that end during the run take their CPU with them; pools keep theirs open.
const countsBefore = await proc.counts();
const before = { sys: sysOf(proc.pid), server: cpuOf(proc.pid), pg: postgresCpu(), self: process.cpuUsage() };
const t0 = Date.now();
const r = process.argv.includes('--idle')
  ? (await new Promise((res) => setTimeout(res, seconds * 1000)), { '2xx': 1, latency: {} })
  : await autocannon({ ...req, connections: clients, duration: seconds });
const wall = (Date.now() - t0) / 1000;
const selfUsage = process.cpuUsage(before.self);
const n = r['2xx'];
const countsAfter = await proc.counts();
const statements = Object.entries(countsAfter).reduce((sum, [sql, c]) => sum + c - (countsBefore[sql] ?? 0), 0);
const per = (s) => ((s * 1e6) / n).toFixed(0).padStart(5);
const serverCpu = cpuOf(proc.pid) - before.server;
const serverSys = sysOf(proc.pid) - before.sys;
const pgCpu = postgresCpu() - before.pg;
const selfCpu = (selfUsage.user + selfUsage.system) / 1e6;
console.log(
  `${kind}${dir ? ` (${dir})` : ''} ${JSON.stringify(env)} c=${clients}: ${(n / wall).toFixed(0)} req/s, p50 ${r.latency.p50} ms; ${(statements / n).toFixed(2)} statements/request; CPU µs/request: server ${per(serverCpu)} (kernel ${per(serverSys).trim()}), postgres ${per(pgCpu)}, autocannon ${per(selfCpu)}; cores busy ${((serverCpu + pgCpu + selfCpu) / wall).toFixed(2)} (server ${(serverCpu / wall).toFixed(2)}, pg ${(pgCpu / wall).toFixed(2)})`,
);
if (process.argv.includes('--statements'))
  for (const [sql, c] of Object.entries(countsAfter)) {
    const d = c - (countsBefore[sql] ?? 0);
    if (d > 0) console.log(`  ${(d / n).toFixed(3)} × ${sql}`);
  }
if (process.argv.includes('--pids'))
  for (const [pid, p] of [...perPid].sort((a, b) => b[1].delta - a[1].delta).slice(0, 12))
    console.log(pid, p.delta.toFixed(2), p.title);
await server.stop();
