import pg from 'pg';

/**
 * A plain LISTEN session on notifyd's signal channel: what any process would receive. Tests use
 * it to see which signals went out (and which did not), independently of notifyd's listener.
 */
export class SignalTap {
  readonly payloads: string[] = [];
  private readonly client: pg.Client;
  private waiters: (() => void)[] = [];

  private constructor(url: string) {
    this.client = new pg.Client({ connectionString: url, application_name: 'test-signal-tap' });
    this.client.on('error', () => undefined);
    this.client.on('notification', (msg) => {
      if (msg.channel !== 'notifyd_signals' || msg.payload === undefined) return;
      this.payloads.push(msg.payload);
      for (const w of this.waiters) w();
    });
  }

  static async open(url: string): Promise<SignalTap> {
    const tap = new SignalTap(url);
    await tap.client.connect();
    await tap.client.query('LISTEN notifyd_signals');
    return tap;
  }

  /** Payloads received with this prefix, e.g. 'job.end:'. */
  matching(prefix: string): string[] {
    return this.payloads.filter((p) => p.startsWith(prefix));
  }

  /** Resolves once a payload satisfies `predicate`; rejects after `timeoutMs`. */
  waitFor(predicate: (payload: string) => boolean, timeoutMs = 10_000): Promise<string> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const found = this.payloads.find(predicate);
        if (found === undefined) return false;
        clearTimeout(timer);
        this.waiters = this.waiters.filter((w) => w !== check);
        resolve(found);
        return true;
      };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== check);
        reject(new Error(`no matching signal within ${timeoutMs} ms; got ${JSON.stringify(this.payloads.slice(-20))}`));
      }, timeoutMs);
      if (!check()) this.waiters.push(check);
    });
  }

  clear(): void {
    this.payloads.length = 0;
  }

  close(): Promise<void> {
    return this.client.end();
  }
}

/** Polls `probe` until it returns a value other than undefined; fails after `timeoutMs`. */
export async function eventually<T>(probe: () => Promise<T | undefined>, timeoutMs = 10_000, everyMs = 25): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
