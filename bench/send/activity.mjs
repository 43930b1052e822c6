// What the database's backends wait on during a load run (issue 19's lock-wait target): every
// `ms` the sampler reads pg_stat_activity from a connection of its own and counts the active
// client backends of the run's database (itself excluded), those waiting on a heavyweight lock
// (wait_event_type 'Lock': a row lock, a tuple, a transaction id — what a hot row causes), and
// the (wait event, query prefix) pairs of those that wait on anything.

/** Active client backends of this database, other than the sampler's own. */
const ACTIVE_BACKENDS = `
  SELECT wait_event_type, wait_event, left(btrim(regexp_replace(query, '\\s+', ' ', 'g')), 60) AS query
    FROM pg_stat_activity
   WHERE datname = current_database() AND state = 'active' AND backend_type = 'client backend'
     AND pid <> pg_backend_pid()`;

/** Starts sampling through `pool` (pg.Pool of the run's database); stop() resolves to the counts. */
export function sampleActivity(pool, ms = 100) {
  const counts = { ticks: 0, active: 0, lock: 0, waits: new Map() };
  let inFlight;
  // A sample that takes longer than the interval (a starved machine) skips the next tick
  // instead of piling queries up.
  const timer = setInterval(() => {
    if (inFlight) return;
    inFlight = pool
      .query(ACTIVE_BACKENDS)
      .then(({ rows }) => {
        counts.ticks++;
        for (const r of rows) {
          counts.active++;
          if (r.wait_event_type === 'Lock') counts.lock++;
          if (r.wait_event_type) {
            const pair = `${r.wait_event_type}:${r.wait_event} | ${r.query}`;
            counts.waits.set(pair, (counts.waits.get(pair) ?? 0) + 1);
          }
        }
      })
      .catch((err) => process.stderr.write(`activity sampler: ${err.message}\n`))
      .finally(() => (inFlight = undefined));
  }, ms);
  return {
    async stop() {
      clearInterval(timer);
      await inFlight;
      return counts;
    },
  };
}

/** Counts of several runs added up (the table reports a cell's rounds together). */
export function addActivity(all) {
  const sum = { ticks: 0, active: 0, lock: 0, waits: new Map() };
  for (const c of all) {
    sum.ticks += c.ticks;
    sum.active += c.active;
    sum.lock += c.lock;
    for (const [pair, n] of c.waits) sum.waits.set(pair, (sum.waits.get(pair) ?? 0) + n);
  }
  return sum;
}

/** Share of active samples waiting on a lock (NaN without any active sample). */
export const lockShare = (c) => (c.active ? c.lock / c.active : NaN);

/** The `n` most frequent (wait event, query prefix) pairs, each with its share of active samples. */
export const topWaits = (c, n = 3) =>
  [...c.waits]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([pair, count]) => ({ pair, share: count / c.active }));
