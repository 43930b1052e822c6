// graphile-worker draining no-op jobs. Batched: the local queue fetches and locks 1 000 jobs at a
// time, 32 concurrent jobs, completions batched (its documented high-throughput settings; the best
// of local queue 200–1 000 × concurrency 16–32 on this machine); unbatched: its
// defaults (one fetch and one completion per job), concurrency 10. PEER_BATCH / PEER_WORKERS
// override the local queue size and the concurrency, for tuning.
import { makeWorkerUtils, run } from 'graphile-worker';
import { DATABASE_URL, FUTURE, MODE, enqueueInCalls, report, stopRequested } from './protocol.mjs';

const utils = await makeWorkerUtils({ connectionString: DATABASE_URL });
await utils.migrate();
await enqueueInCalls((count, from) =>
  utils.addJobs(
    Array.from({ length: count }, (_, i) => ({ identifier: 'noop', payload: { n: from + i }, runAt: FUTURE })),
  ),
);
await utils.release();

const batched = MODE !== 'unbatched';
const runner = await run({
  connectionString: DATABASE_URL,
  concurrency: Number(process.env.PEER_WORKERS ?? (batched ? 32 : 10)),
  pollInterval: 100,
  noHandleSignals: true,
  taskList: { noop: async () => {} },
  preset: {
    worker: batched
      ? {
          localQueue: { size: Number(process.env.PEER_BATCH ?? 1000) },
          completeJobBatchDelay: 0,
          failJobBatchDelay: 0,
          maxPoolSize: 34,
        }
      : { maxPoolSize: 12 },
  },
});
report({ event: 'ready' });
await stopRequested();
await runner.stop();
