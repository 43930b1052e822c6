// The seed's experiment on this machine: N clients commit single-row transactions as fast as
// they can, (a) without NOTIFY, (b) with a NOTIFY inside each transaction, (c) with notifyd's
// after-commit sender (the real SignalSender and FLUSH_SIGNALS from dist/, 2 ms gap). Two
// sessions LISTEN throughout, as in the seed. Commits/s and commits per WAL flush
// (pg_stat_wal, PostgreSQL 14+) show why (b) has a ceiling.
import pg from 'pg';
import { SignalSender } from '../../dist/src/database/signals/signal-sender.js';
import { FLUSH_SIGNALS } from '../../dist/src/database/signals/signals.sql.js';

const INSERT = `INSERT INTO bench_rows (client) VALUES ($1)`;
const INSERT_AND_NOTIFY = `WITH i AS (INSERT INTO bench_rows (client) VALUES ($1) RETURNING client)
  SELECT pg_notify('notifyd_signals', 'bench.tenant:' || (client % 8)) FROM i`;

async function connect(url, n) {
  const clients = [];
  for (let i = 0; i < n; i++) {
    const c = new pg.Client({ connectionString: url });
    c.on('error', () => undefined);
    await c.connect();
    clients.push(c);
  }
  return clients;
}

async function walFlushes(db) {
  const { rows } = await db
    .query(`SELECT wal_sync::bigint + wal_write::bigint AS n FROM pg_stat_wal`)
    .catch(() => ({ rows: [{ n: null }] }));
  return rows[0].n === null ? null : Number(rows[0].n);
}

async function lockWaits(db) {
  const {
    rows: [{ n }],
  } = await db.query(
    `SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND wait_event = 'object' AND state = 'active'`,
  );
  return n;
}

export async function commitCeiling(databaseUrl, { clients = [8, 32, 64], durationSec = 8 } = {}) {
  const admin = new pg.Client({ connectionString: databaseUrl });
  admin.on('error', () => undefined);
  await admin.connect();
  await admin.query(
    `CREATE TABLE IF NOT EXISTS bench_rows (id bigserial PRIMARY KEY, client int NOT NULL, at timestamptz NOT NULL DEFAULT now())`,
  );
  const listeners = await connect(databaseUrl, 2);
  let received = 0;
  for (const l of listeners) {
    l.on('notification', () => received++);
    await l.query('LISTEN notifyd_signals');
  }
  const senderConn = (await connect(databaseUrl, 1))[0];
  const results = [];
  for (const n of clients) {
    const pool = await connect(databaseUrl, n);
    const row = { clients: n };
    for (const variant of ['none', 'in_tx', 'after_commit']) {
      await admin.query('TRUNCATE bench_rows');
      const sender =
        variant === 'after_commit'
          ? new SignalSender(
              async (own, xids, messages) => (await senderConn.query(FLUSH_SIGNALS, [own, xids, messages])).rows[0],
              2,
              { warn: () => undefined },
            )
          : undefined;
      const flushesBefore = await walFlushes(admin);
      received = 0;
      let commits = 0;
      let maxLockWaits = 0;
      const stopAt = Date.now() + durationSec * 1000;
      const sampler = setInterval(
        () => void lockWaits(admin).then((w) => (maxLockWaits = Math.max(maxLockWaits, w))),
        250,
      );
      await Promise.all(
        pool.map(async (c, i) => {
          while (Date.now() < stopAt) {
            await c.query(variant === 'in_tx' ? INSERT_AND_NOTIFY : INSERT, [i]);
            commits++;
            if (sender) sender.send(`bench.tenant:${i % 8}`);
          }
        }),
      );
      clearInterval(sampler);
      if (sender) await sender.close();
      const flushes = await walFlushes(admin);
      row[variant] = {
        commitsPerSec: Math.round(commits / durationSec),
        commitsPerWalFlush:
          flushes === null || flushesBefore === null ? null : commits / Math.max(1, flushes - flushesBefore),
        notifyFlushes: sender ? sender.stats.flushes : variant === 'in_tx' ? commits : 0,
        maxLockWaits,
      };
      process.stderr.write(
        `ceiling c=${n} ${variant}: ${row[variant].commitsPerSec} commits/s, ${row[variant].commitsPerWalFlush?.toFixed(1)} commits/WAL flush, lock:object waiters ≤ ${maxLockWaits}\n`,
      );
    }
    await Promise.all(pool.map((c) => c.end()));
    results.push(row);
  }
  await Promise.all([...listeners, senderConn, admin].map((c) => c.end()));
  return results;
}
