/**
 * V8 flags a worker replica runs with, both trading a little CPU for resident memory. The
 * worker's garbage is short-lived (a few claimed batches at a time) and its live heap small
 * (~35 MB idle, most of it code), but it allocates fast while draining.
 *
 * - `--max-semi-space-size=8`: the default semi-space on 64-bit is 16 MB (the young generation
 *   reserves three of them), about a sixth of an idle worker's RSS. Too small costs CPU: at 2
 *   MB, the batches in flight outlived each scavenge and were promoted. Measured with
 *   bench/drain (100 000 jobs, Node 24, side by side): worker CPU 24.8–27.4 µs/job at 2 MB,
 *   20.7–22.9 at 8 MB, 20.3–22.0 at 16 MB (issue 9).
 * - `--heap-growing-percent=N`: after each full collection V8 lets the old generation grow by a
 *   factor it picks itself (up to 4× the live heap when collection looks cheap), so a fast drain
 *   let garbage pile up to 105–115 MB of heap before collecting it: the drain's RSS peak. With
 *   the factor fixed at 1.2 the heap stays under 70 MB and the drain's peak RSS fell from
 *   182–196 MB to 142–148 MB (bench/drain protocol, 100 000 jobs, side by side under load);
 *   worker CPU per job about 15 % more, drain jobs/s not lower (issue 20; docs/BENCHMARKS.md,
 *   "Worker RSS"). At 50 % the peak was 158 MB; --optimize-for-size held it at 126 MB for 2.2×
 *   the CPU.
 */
export const WORKER_V8_FLAGS = ['--max-semi-space-size=8', '--heap-growing-percent=20'];

type ExecVe = (file: string, args: string[], env: NodeJS.ProcessEnv) => never;

/** The flag's name: `--max-semi-space-size=8` → `--max-semi-space-size` (V8 also reads underscores). */
const flagName = (arg: string) => arg.split('=')[0].replace(/_/g, '-');

/**
 * `notifyd serve` with NOTIFYD_ROLE=worker restarts itself in place (execve: same pid, same
 * stdio, nothing started yet) with WORKER_V8_FLAGS, so that every way of running a worker
 * (Docker, compose, Kubernetes, a bare `notifyd serve`, bench/) gets the same heap without each
 * repeating the flags. V8 reads heap sizes at start-up only (v8.setFlagsFromString is too
 * late). A flag the operator sets (NODE_OPTIONS or a node flag) keeps the operator's value;
 * where process.execve does not exist (Node before 22.15, Windows) the worker runs unchanged.
 */
export function reexecWorkerWithV8Flags(env: NodeJS.ProcessEnv = process.env): void {
  // Read as the config reads it (envEnum trims and lowercases): NOTIFYD_ROLE=Worker runs a worker.
  if (env.NOTIFYD_ROLE?.trim().toLowerCase() !== 'worker') return;
  const given = new Set([...process.execArgv, ...(env.NODE_OPTIONS ?? '').split(/\s+/)].map(flagName));
  const missing = WORKER_V8_FLAGS.filter((flag) => !given.has(flagName(flag)));
  if (missing.length === 0) return;
  const execve = (process as unknown as { execve?: ExecVe }).execve;
  if (typeof execve !== 'function') return;
  try {
    execve.call(
      process,
      process.execPath,
      [process.execPath, ...process.execArgv, ...missing, ...process.argv.slice(1)],
      env,
    );
  } catch (err) {
    // Only reached if execve failed; the worker still works with V8's default heap.
    process.stderr.write(
      `notifyd: could not restart with ${missing.join(' ')} (${(err as Error).message}); running with V8's defaults\n`,
    );
  }
}
