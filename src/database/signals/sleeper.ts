/**
 * A sleep that can be cut short: a loop waits for its next poll, and whoever queued work in
 * this process wakes it. A wake() while nobody sleeps makes the next sleep return at once, so
 * no wake-up is lost between a loop's check and its sleep. A sleep under way can also be
 * brought forward (endBy), for a loop that learns of work due before its poll ends.
 */
export class Sleeper {
  private waiter: (() => void) | undefined;
  private pending = false;
  /** While sleeping: when the sleep ends, and how to end it sooner. */
  private deadline = 0;
  private rearm: ((ms: number) => void) | undefined;

  /** End the current sleep, or the next one if nobody sleeps yet. */
  wake(): void {
    if (this.waiter) {
      const resolve = this.waiter;
      this.waiter = undefined;
      resolve();
    } else {
      this.pending = true;
    }
  }

  /** Whether the next sleep will return at once (a wake() came while nobody slept). */
  get woken(): boolean {
    return this.pending;
  }

  /**
   * While a sleep is under way: make it end by `time` (epoch ms) if it would end later.
   * Returns false when nobody sleeps (nothing to shorten).
   */
  endBy(time: number): boolean {
    if (!this.rearm) return false;
    if (time < this.deadline) this.rearm(Math.max(0, time - Date.now()));
    return true;
  }

  sleep(ms: number): Promise<void> {
    if (this.pending) {
      this.pending = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      let timer: NodeJS.Timeout;
      const done = () => {
        clearTimeout(timer);
        this.waiter = undefined;
        this.rearm = undefined;
        resolve();
      };
      const arm = (wait: number) => {
        clearTimeout(timer);
        this.deadline = Date.now() + wait;
        timer = setTimeout(done, wait);
      };
      arm(ms);
      this.rearm = arm;
      this.waiter = done;
    });
  }
}
