import { startNotifyd } from '../main.js';

/** `notifyd serve`: run until SIGTERM/SIGINT, then shut down gracefully and exit 0. */
export async function serve(): Promise<number> {
  const notifyd = await startNotifyd();
  return new Promise<number>((resolve) => {
    let stopping = false;
    const stop = (signal: NodeJS.Signals) => {
      if (stopping) {
        process.stderr.write(`second ${signal}: exiting without waiting\n`);
        process.exit(1);
      }
      stopping = true;
      process.stderr.write(`${signal} received: finishing in-flight sends, then exiting\n`);
      notifyd.close().then(
        () => resolve(0),
        (err: Error) => {
          process.stderr.write(`shutdown failed: ${err.message}\n`);
          resolve(1);
        },
      );
    };
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
  });
}
