import type { Logger } from '@nestjs/common';
import { Sleeper } from './sleeper.js';
import type { SignalsService } from './signals.service.js';

export interface SignalWokenLoopOptions {
  /** What a round does, for the log line when one fails ("webhook delivery round failed …"). */
  what: string;
  logger: Logger;
  signals: SignalsService;
  /** Signalled after a commit that queued work; any replica's loop on this topic wakes. */
  topic: string;
  /** Claims and handles one batch; returns how many items it claimed. */
  round: () => Promise<number>;
  /** A round that claims a full batch loops at once (more is probably due); a short one sleeps. */
  batchSize: number;
  /** The fallback poll: how late work is found when no signal arrives (missed, or disabled). */
  pollIntervalMs: number;
}

/**
 * A claim loop for work queued in a table (webhook deliveries, workflow runs): run rounds
 * until one comes back short, then sleep until a signal on the topic (from this process or
 * any replica, and after every listener reconnection, when signals may have been missed),
 * or the poll interval. Errors back off exponentially up to 30 s; they never end the loop.
 * The job worker has its own loop (WorkerService): it overlaps several batches
 * (WORKER_BATCHES_IN_FLIGHT) and sleeps until the next known due time, which this one does
 * not need.
 */
export class SignalWokenLoop {
  private readonly sleeper = new Sleeper();
  private loop: Promise<void> | undefined;
  private unsubscribe: (() => void) | undefined;
  private stopping = false;

  constructor(private readonly options: SignalWokenLoopOptions) {}

  start(): void {
    if (this.loop) return;
    const wake = () => this.sleeper.wake();
    this.unsubscribe = this.options.signals.subscribe(this.options.topic, { received: wake, resync: wake });
    this.stopping = false;
    this.loop = this.run();
  }

  /** Ends the loop after the round in progress (if any) and waits for it. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.sleeper.wake();
    await this.loop;
    this.loop = undefined;
    this.unsubscribe?.();
    this.unsubscribe = undefined;
  }

  /**
   * Work was queued and committed: end this process's sleep now and tell the other replicas
   * (one buffered signal). Called in the api role too, where only the signal matters.
   */
  wake(): void {
    this.sleeper.wake();
    this.options.signals.send(this.options.topic, '*');
  }

  private async run(): Promise<void> {
    const { what, logger, round, batchSize, pollIntervalMs } = this.options;
    let failures = 0;
    while (!this.stopping) {
      let claimed: number;
      try {
        claimed = await round();
        failures = 0;
      } catch (err) {
        failures++;
        const backoff = Math.min(30_000, 250 * 2 ** Math.min(failures, 7));
        logger.warn(`${what} failed (${(err as Error).message}); retrying in ${backoff} ms`);
        await this.sleeper.sleep(backoff);
        continue;
      }
      if (claimed < batchSize && !this.stopping) await this.sleeper.sleep(pollIntervalMs);
    }
  }
}
