// pg-boss draining no-op jobs. Batched: fetch 500 jobs per poll with 4 local workers (the best
// of batch 100–1000 × 2–4 workers on this machine) and keep fetching while batches come back full
// (burstWhenBatchFull); PEER_BATCH / PEER_WORKERS override. Unbatched: batchSize 1, 10 workers.
// pg-boss polls at least every 0.5 s, the floor it allows.
import { PgBoss } from 'pg-boss';
import { DATABASE_URL, FUTURE, MODE, enqueueInCalls, report, stopRequested } from './protocol.mjs';

const boss = new PgBoss({ connectionString: DATABASE_URL, max: 12, supervise: false, schedule: false });
boss.on('error', (error) => process.stderr.write(`pg-boss: ${error.message}\n`));
await boss.start();
await boss.createQueue('noop');
await enqueueInCalls((count, from) =>
  boss.insert(
    'noop',
    Array.from({ length: count }, (_, i) => ({ data: { n: from + i }, startAfter: FUTURE })),
  ),
);

const batched = MODE !== 'unbatched';
await boss.work(
  'noop',
  batched
    ? {
        batchSize: Number(process.env.PEER_BATCH ?? 500),
        localConcurrency: Number(process.env.PEER_WORKERS ?? 4),
        pollingIntervalSeconds: 0.5,
        burstWhenBatchFull: true,
      }
    : { batchSize: 1, localConcurrency: 10, pollingIntervalSeconds: 0.5 },
  async () => {},
);
report({ event: 'ready' });
await stopRequested();
await boss.stop({ graceful: true, timeout: 5_000 });
