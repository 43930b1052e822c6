import { Injectable } from '@nestjs/common';

/**
 * How a sleeping worker is woken before its poll interval ends. Enqueues in this process call
 * wake() directly; the signals module calls it for enqueues on other replicas.
 */
@Injectable()
export class WorkerWakeup {
  private waiter: (() => void) | undefined;
  private pending = false;

  /** A due job may be waiting: end the current sleep (or the next one, if not sleeping yet). */
  wake(): void {
    if (this.waiter) {
      const resolve = this.waiter;
      this.waiter = undefined;
      resolve();
    } else {
      this.pending = true;
    }
  }

  /** Sleeps up to `ms`, or less if woken. */
  sleep(ms: number): Promise<void> {
    if (this.pending) {
      this.pending = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiter = undefined;
        resolve();
      }, ms);
      this.waiter = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
}
