// POST /v1/send under 8, 32 and 64 concurrent clients, signals on and off: accepted requests/s
// and latency p50/p99 (autocannon). notifyd runs as its own process with NOTIFYD_ROLE=api, so
// the numbers are the enqueue path alone: insert, commit, and (signals on) the buffered
// jobs.due flush plus this process's own listener receiving it.
import autocannon from 'autocannon';
import pg from 'pg';
import { ADMIN_KEY, api, startNotifyd } from '../lib.mjs';
import { benchProject, median } from './stats.mjs';

export const BASE_ENV = { SMS_PROVIDER: 'log', JWT_SECRET: 'bench-jwt-secret-0123456789abcdef' };

function load(url, key, connections, durationSec) {
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: `${url}/v1/send`,
        method: 'POST',
        connections,
        duration: durationSec,
        headers: { 'content-type': 'application/json', 'x-api-key': key },
        body: JSON.stringify({ channels: ['sms'], to: '+33600000000', body: 'bench' }),
      },
      (err, result) => (err ? reject(err) : resolve(result)),
    );
  });
}

/** rounds × (client counts × modes), modes interleaved so that drift hits both alike. */
export async function apiThroughput(databaseUrl, { clients = [8, 32, 64], rounds = 3, durationSec = 10 } = {}) {
  const db = new pg.Client({ connectionString: databaseUrl });
  db.on('error', () => undefined);
  await db.connect();
  const samples = {};
  for (let round = 0; round < rounds; round++) {
    for (const signals of ['on', 'off']) {
      const server = await startNotifyd({
        ...BASE_ENV,
        DATABASE_URL: databaseUrl,
        NOTIFYD_ROLE: 'api',
        SIGNALS_ENABLED: signals === 'on' ? 'true' : 'false',
      });
      try {
        const key = await benchProject(api, server.url, ADMIN_KEY, `bench-${signals}-${round}`);
        await load(server.url, key, 8, 2); // warm-up: JIT, pool, plan cache
        for (const c of clients) {
          await db.query('TRUNCATE jobs CASCADE');
          const r = await load(server.url, key, c, durationSec);
          const row = {
            rps: r.requests.average,
            p50: r.latency.p50,
            p99: r.latency.p99,
            non2xx: r.non2xx,
            errors: r.errors,
          };
          (samples[`${signals}/${c}`] ??= []).push(row);
          process.stderr.write(
            `api ${signals} c=${c} round ${round + 1}: ${row.rps} req/s p50 ${row.p50} ms p99 ${row.p99} ms non2xx ${row.non2xx}\n`,
          );
        }
      } finally {
        await server.stop();
      }
    }
  }
  await db.end();
  return clients.map((c) => {
    const pick = (mode) => {
      const runs = samples[`${mode}/${c}`];
      return {
        rps: median(runs.map((r) => r.rps)),
        p50: median(runs.map((r) => r.p50)),
        p99: median(runs.map((r) => r.p99)),
        bad: runs.reduce((n, r) => n + r.non2xx + r.errors, 0),
      };
    };
    const on = pick('on');
    const off = pick('off');
    return { clients: c, on, off, ratio: on.rps / off.rps };
  });
}
