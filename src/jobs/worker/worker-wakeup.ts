import { Injectable, type OnModuleInit } from '@nestjs/common';
import { SignalsService } from '../../database/signals/signals.service.js';
import { Sleeper } from '../../database/signals/sleeper.js';

/** Signalled after a commit that made jobs due now; the key is the channel ('*' when unknown). */
export const JOBS_DUE_TOPIC = 'jobs.due';

/**
 * How a sleeping worker is woken before its poll interval ends: directly by enqueues in this
 * process, and by the `jobs.due` signal for enqueues on other replicas (and after every
 * reconnection of the listener, when signals may have been missed). It also remembers the
 * soonest due time it was told of, so that a sleep never overshoots a known job.
 */
@Injectable()
export class WorkerWakeup implements OnModuleInit {
  private readonly sleeper = new Sleeper();
  /** A due time learnt while not sleeping, applied to the next sleep. */
  private nextDueAt = Infinity;

  constructor(private readonly signals: SignalsService) {}

  onModuleInit(): void {
    this.signals.subscribe(JOBS_DUE_TOPIC, { received: () => this.wake(), resync: () => this.wake() });
  }

  /** A due job may be waiting: end the current sleep (or the next one, if not sleeping yet). This process only. */
  wake(): void {
    this.sleeper.wake();
  }

  /**
   * Jobs became due now (enqueued, retried, re-queued by the reaper), committed: wake this
   * worker at once and every other replica's through one signal per channel. The signal is
   * buffered and coalesced with other requests' (one flush every SIGNAL_FLUSH_MIN_GAP_MS).
   */
  jobsDue(channels: Iterable<string> = []): void {
    this.wake();
    let any = false;
    for (const channel of new Set(channels)) {
      this.signals.send(JOBS_DUE_TOPIC, channel);
      any = true;
    }
    if (!any) this.signals.send(JOBS_DUE_TOPIC, '*');
  }

  /**
   * Jobs were queued for `at`: due now → jobsDue; later → no signal (every worker computes the
   * next due time before it sleeps), only a hint so this process's sleeping worker wakes on time.
   */
  queued(at: Date, channels: Iterable<string>): void {
    if (at.getTime() <= Date.now()) this.jobsDue(channels);
    else this.dueAt(at);
  }

  /** A job becomes due at `at`: shorten the current sleep, or the next one, to end by then. */
  dueAt(at: Date): void {
    const time = at.getTime();
    if (!this.sleeper.endBy(time)) this.nextDueAt = Math.min(this.nextDueAt, time);
  }

  /** Sleeps up to `ms`, or less if woken or told of a sooner due time. */
  sleep(ms: number): Promise<void> {
    // A pending wake returns at once and keeps the due time learnt for the sleep after it.
    if (!this.sleeper.woken) {
      const now = Date.now();
      if (this.nextDueAt < now + ms) ms = Math.max(0, this.nextDueAt - now);
      this.nextDueAt = Infinity;
    }
    return this.sleeper.sleep(ms);
  }
}
