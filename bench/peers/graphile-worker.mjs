// graphile-worker draining no-op jobs. Batched: the local queue fetches and locks 500 jobs at a
// time and completions are batched (its documented high-throughput settings); unbatched: its
// defaults (one fetch and one completion per job), concurrency 10.
import { makeWorkerUtils, run } from 'graphile-worker';
import { DATABASE_URL, FUTURE, MODE, enqueueInCalls, report, stopRequested } from './protocol.mjs';

const utils = await makeWorkerUtils({ connectionString: DATABASE_URL });
await utils.migrate();
await enqueueInCalls((count, from) =>
  utils.addJobs(Array.from({ length: count }, (_, i) => ({ identifier: 'noop', payload: { n: from + i }, runAt: FUTURE }))),
);
await utils.release();

const batched = MODE !== 'unbatched';
const runner = await run({
  connectionString: DATABASE_URL,
  concurrency: batched ? 24 : 10,
  pollInterval: 100,
  noHandleSignals: true,
  taskList: { noop: async () => {} },
  preset: {
    worker: batched
      ? { localQueue: { size: 500 }, completeJobBatchDelay: 0, failJobBatchDelay: 0, maxPoolSize: 26 }
      : { maxPoolSize: 12 },
  },
});
report({ event: 'ready' });
await stopRequested();
await runner.stop();
