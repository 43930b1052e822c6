/**
 * A sleep that can be cut short: a loop waits for its next poll, and whoever queued work in
 * this process wakes it. A wake() while nobody sleeps makes the next sleep return at once, so
 * no wake-up is lost between a loop's check and its sleep.
 */
export class Sleeper {
  private waiter: (() => void) | undefined;
  private pending = false;

  wake(): void {
    if (this.waiter) {
      const resolve = this.waiter;
      this.waiter = undefined;
      resolve();
    } else {
      this.pending = true;
    }
  }

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
