/**
 * V8 flags a worker replica runs with. The worker's garbage is short-lived (one claimed batch
 * at a time), so a small young generation costs it little time and saves resident memory:
 * V8's default semi-space on 64-bit is 16 MB (the young generation reserves three of them),
 * which on an idle worker is about a sixth of its RSS. Measured with bench/drain (20 000 jobs,
 * Node 24, worker without the HTTP layer): idle 148 → 122–125 MB, drain peak 194–202 → 141–157
 * MB; 1 MB and 4 MB were no better (docs/BENCHMARKS.md, issue 9).
 */
export const WORKER_V8_FLAGS = ['--max-semi-space-size=2'];

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
