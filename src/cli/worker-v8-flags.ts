/**
 * V8 flags a worker replica runs with. The worker's garbage is short-lived (a few claimed
 * batches at a time), so a young generation smaller than V8's default saves resident memory:
 * the default semi-space on 64-bit is 16 MB (the young generation reserves three of them),
 * about a sixth of an idle worker's RSS. Too small costs CPU: at 2 MB, the batches in flight
 * outlived each scavenge and were promoted. Measured with bench/drain (100 000 jobs, Node 24,
 * side by side): worker CPU 24.8–27.4 µs/job at 2 MB, 20.7–22.9 at 8 MB, 20.3–22.0 at 16 MB;
 * drain peak RSS 200–213 MB at 2 MB, 223–228 at 8 MB (docs/BENCHMARKS.md, issue 9).
 */
export const WORKER_V8_FLAGS = ['--max-semi-space-size=8'];

type ExecVe = (file: string, args: string[], env: NodeJS.ProcessEnv) => never;

/**
 * `notifyd serve` with NOTIFYD_ROLE=worker restarts itself in place (execve: same pid, same
 * stdio, nothing started yet) with WORKER_V8_FLAGS, so that every way of running a worker
 * (Docker, compose, Kubernetes, a bare `notifyd serve`, bench/) gets the same heap without each
 * repeating the flags. V8 reads heap sizes at start-up only (v8.setFlagsFromString is too
 * late). An operator who sets --max-semi-space-size (NODE_OPTIONS or a node flag) keeps theirs;
 * where process.execve does not exist (Node before 22.15, Windows) the worker runs unchanged.
 */
export function reexecWorkerWithV8Flags(env: NodeJS.ProcessEnv = process.env): void {
  // Read as the config reads it (envEnum trims and lowercases): NOTIFYD_ROLE=Worker runs a worker.
  if (env.NOTIFYD_ROLE?.trim().toLowerCase() !== 'worker') return;
  const given = [...process.execArgv, ...(env.NODE_OPTIONS ?? '').split(/\s+/)];
  if (given.some((arg) => arg.startsWith('--max-semi-space-size'))) return;
  const execve = (process as unknown as { execve?: ExecVe }).execve;
  if (typeof execve !== 'function') return;
  try {
    execve.call(process, process.execPath, [process.execPath, ...process.execArgv, ...WORKER_V8_FLAGS, ...process.argv.slice(1)], env);
  } catch (err) {
    // Only reached if execve failed; the worker still works with V8's default heap.
    process.stderr.write(`notifyd: could not restart with ${WORKER_V8_FLAGS.join(' ')} (${(err as Error).message}); running with V8's defaults\n`);
  }
}
