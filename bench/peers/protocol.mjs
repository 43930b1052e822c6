// The protocol every peer child follows, so that bench/peers.mjs measures them alike:
//   1. enqueue N no-op jobs in calls of CALL, due in the future (nothing drains yet), and
//      print `{"event":"enqueued","jobsPerSec":…}`;
//   2. start the peer's worker with its best settings for this machine, print
//      `{"event":"ready"}`;
//   3. the parent releases every job with one UPDATE and polls the queue until it is empty
//      (the same clock for every peer), then sends SIGTERM; the child stops its worker and exits.
// The parent samples the child's RSS every 250 ms throughout.
export const N = Number(process.env.PEER_JOBS ?? 100_000);
export const CALL = Number(process.env.PEER_CALL ?? 5_000);
export const DATABASE_URL = process.env.PEER_DATABASE_URL;
export const MODE = process.env.PEER_MODE ?? 'batched';
export const FUTURE = new Date('2030-01-01T00:00:00Z');

export function report(event) {
  process.stdout.write(`${JSON.stringify(event)}\n`);
}

/** Resolves on SIGTERM from the parent. */
export const stopRequested = () => new Promise((resolve) => process.once('SIGTERM', resolve));

export async function enqueueInCalls(addCall) {
  const started = performance.now();
  for (let from = 0; from < N; from += CALL) await addCall(Math.min(CALL, N - from), from);
  report({ event: 'enqueued', jobsPerSec: N / ((performance.now() - started) / 1000) });
}
