// bench/send's summary: one row per body × clients × API processes × server, the medians of the
// rounds, and issue 19's targets checked on every notifyd row:
//   req/s ≥ 0.7 × the bare endpoint's at 8 and 32 clients (below 0.5 the issue is not done);
//   p50 at 8 clients ≤ 1.5 × the bare endpoint's p50 + 1 ms;
//   lock waits ≤ 2 % of the active samples;
//   two API processes not slower than one.
import { fmt } from '../lib.mjs';
import { median } from '../signals/stats.mjs';
import { addActivity, lockShare, topWaits } from './activity.mjs';

const TARGET = {
  rpsRatio: 0.7,
  rpsNotDone: 0.5,
  rpsClients: [8, 32],
  p50Clients: 8,
  p50Factor: 1.5,
  p50SlackMs: 1,
  lockShare: 0.02,
};

const pct = (share) => (Number.isFinite(share) ? `${fmt(100 * share, 1)} %` : 'n/a');
const times = (ratio) => (Number.isFinite(ratio) ? `${fmt(ratio, 2)}×` : 'n/a');

/** Median over rounds of a / b, round by round: the pairs ran next to each other. */
const pairedRatio = (as, bs) => median(as.map((a, i) => a.rps / bs[i].rps));

function cell(runs) {
  const activity = addActivity(runs.map((r) => r.activity));
  return {
    rps: median(runs.map((r) => r.rps)),
    p50: median(runs.map((r) => r.p50)),
    p99: median(runs.map((r) => r.p99)),
    errors: runs.reduce((s, r) => s + r.errors, 0),
    activity,
    lockShare: lockShare(activity),
  };
}

function targets({ clients, processes, runs, bare, lockWaits, p50, fewerProcesses }) {
  const marks = [];
  const ratio = pairedRatio(runs, bare.runs);
  if (TARGET.rpsClients.includes(clients)) {
    if (ratio >= TARGET.rpsRatio) marks.push('✓ req/s');
    else marks.push(ratio < TARGET.rpsNotDone ? '✗ req/s (< 0.5×: not done)' : '✗ req/s');
  }
  if (clients === TARGET.p50Clients)
    marks.push(p50 <= TARGET.p50Factor * bare.p50 + TARGET.p50SlackMs ? '✓ p50' : '✗ p50');
  if (Number.isFinite(lockWaits)) marks.push(lockWaits <= TARGET.lockShare ? '✓ locks' : '✗ locks');
  else marks.push('? locks (no active sample)');
  if (fewerProcesses) {
    const vsOne = pairedRatio(runs, fewerProcesses);
    marks.push(`${vsOne >= 1 ? '✓' : '✗'} ${processes} vs 1 proc ${times(vsOne)}`);
  }
  return { ratio, marks };
}

export function summary(results, { bodies, clients: clientCounts, processes: processCounts, servers, rounds }) {
  const lines = [
    `Medians of ${rounds} rounds. req/s: 2xx answers per second, summed over the API processes; p50/p99: autocannon's latency`,
    `histograms of all the run's autocannon instances merged; lock waits: share of active backend samples (pg_stat_activity`,
    `every 100 ms, all rounds) waiting on a heavyweight lock; ÷ bare and "N vs 1 proc": medians of the round-by-round ratios;`,
    `p50 bound: 1.5 × the bare endpoint's p50 + 1 ms (a target at 8 clients).`,
    '',
    '| body | clients | API procs | server | req/s | p50 ms | p99 ms | errors | lock waits | ÷ bare req/s | p50 bound ms | targets |',
    '|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---|',
  ];
  for (const body of bodies) {
    for (const clients of clientCounts) {
      for (const processes of processCounts) {
        const runsOf = (server, n = processes) => results.get(`${body}|${clients}|${n}|${server}`);
        const bareRuns = runsOf('bare');
        const bare = { ...cell(bareRuns), runs: bareRuns };
        for (const server of servers) {
          const runs = runsOf(server);
          const c = cell(runs);
          const row = [body, clients, processes, server, fmt(c.rps), c.p50, c.p99, c.errors, pct(c.lockShare)];
          const fewerProcesses = processes > 1 && processCounts.includes(1) ? runsOf(server, 1) : undefined;
          if (server === 'bare') {
            const vsOne = fewerProcesses ? `${fmt(pairedRatio(runs, fewerProcesses), 2)}× of 1 proc` : '—';
            row.push('—', '—', vsOne);
          } else {
            const bound = TARGET.p50Factor * bare.p50 + TARGET.p50SlackMs;
            const { ratio, marks } = targets({
              clients,
              processes,
              runs,
              bare,
              lockWaits: c.lockShare,
              p50: c.p50,
              fewerProcesses,
            });
            row.push(times(ratio), fmt(bound, 1), marks.join(', '));
          }
          lines.push(`| ${row.join(' | ')} |`);
        }
      }
    }
  }
  return lines.join('\n');
}

/** Per cell: the active samples, the lock-wait share, and the 3 most frequent (wait event, query) pairs. */
export function waitsReport(results, { bodies, clients: clientCounts, processes: processCounts, servers }) {
  const lines = [
    "Waits during the runs (pg_stat_activity, active client backends of the server's database, all rounds):",
  ];
  for (const body of bodies) {
    for (const clients of clientCounts) {
      for (const processes of processCounts) {
        for (const server of servers) {
          const a = addActivity(results.get(`${body}|${clients}|${processes}|${server}`).map((r) => r.activity));
          const top = topWaits(a);
          lines.push(
            `- ${body}, ${clients} clients, ${processes} API proc${processes > 1 ? 's' : ''}, ${server}: ${a.active} active samples in ${a.ticks} ticks, ` +
              `lock waits ${pct(lockShare(a))}; ${top.length ? `top waits: ${top.map((w) => `${w.pair} (${pct(w.share)})`).join('; ')}` : 'no waits'}`,
          );
        }
      }
    }
  }
  return lines.join('\n');
}
