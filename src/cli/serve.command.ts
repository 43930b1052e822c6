import type { StartNotifyd, Started } from './start.js';

/**
 * `notifyd serve`: run until SIGTERM/SIGINT, then shut down gracefully and exit 0. The signal
 * handlers are installed before start-up: a signal that arrives while notifyd is still
 * starting (say, an orchestrator scaling down at once) waits for the start to finish and then
 * shuts down the same way, so the embedded cluster is never left running.
 */
export async function serve(startNotifyd: StartNotifyd): Promise<number> {
  // Filled once start-up completes; the signal handler reads it.
  const running: { notifyd?: Started } = {};
  let signalled: NodeJS.Signals | undefined;
  let finish: (code: number) => void = () => undefined;
  const finished = new Promise<number>((resolve) => (finish = resolve));

  const shutdown = () => {
    process.stderr.write(`${signalled} received: finishing in-flight sends, then exiting\n`);
    running.notifyd!.close().then(
      () => finish(0),
      (err: Error) => {
        process.stderr.write(`shutdown failed: ${err.message}\n`);
        finish(1);
      },
    );
  };
  const onSignal = (signal: NodeJS.Signals) => {
    if (signalled) {
      process.stderr.write(`second ${signal}: exiting without waiting\n`);
      process.exit(1);
    }
    signalled = signal;
    if (running.notifyd) shutdown();
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);

  running.notifyd = await startNotifyd();
  if (signalled) shutdown();
  return finished;
}
