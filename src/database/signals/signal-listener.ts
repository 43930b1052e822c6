import pg from 'pg';
import { LISTENER_HEARTBEAT } from './signals.sql.js';
import { SIGNAL_CHANNEL } from './signal-message.js';

export interface ListenerOptions {
  url: string;
  /** How often the connection must prove it is alive; a heartbeat unanswered for as long is a dead connection. */
  heartbeatMs: number;
  /** Every notification's payload. */
  onSignal: (payload: string) => void;
  /** After every (re)connection: signals may have been missed while there was none. */
  onConnected: () => void;
  log: { log(message: string): void; warn(message: string): void };
}

/** Reconnection backoff: 100 ms doubling to 10 s, ±20 % so replicas do not reconnect in step. */
const FIRST_RETRY_MS = 100;
const MAX_RETRY_MS = 10_000;
/** A heartbeat answer never needs more than this, whatever the interval. */
const MAX_HEARTBEAT_TIMEOUT_MS = 5_000;

/**
 * The one listening connection of a process (DESIGN.md §5): a plain pg.Client, not from the
 * pool (a pooled connection would be handed to other queries and a transaction pooler cannot
 * hold a LISTEN). It reconnects forever with backoff. A pg.Client that lost its connection is
 * unusable, so each attempt builds a new one. A heartbeat with a deadline replaces a
 * connection that stopped answering without closing (half-open TCP, a dropped NAT entry),
 * which TCP alone would notice only after many minutes.
 *
 * Written here rather than taken from pg-listen (1.7.0, 2020): its liveness check has no
 * deadline, so it hangs on exactly the half-open connection it is meant to catch, and it has
 * no hook to resync readers after a reconnection.
 */
export class SignalListener {
  private client: pg.Client | undefined;
  private stopped = false;
  private loop: Promise<void> | undefined;
  private wakeRetry: (() => void) | undefined;
  private connectedNow = false;
  /** Connections made so far (1 after the first; more after reconnections). */
  connections = 0;

  constructor(private readonly options: ListenerOptions) {}

  get connected(): boolean {
    return this.connectedNow;
  }

  start(): void {
    this.loop ??= this.run();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wakeRetry?.();
    const client = this.client;
    if (client) await client.end().catch(() => undefined);
    await this.loop;
  }

  private async run(): Promise<void> {
    let failures = 0;
    while (!this.stopped) {
      const before = this.connections;
      const lost = await this.session().catch((err: Error) => err);
      this.connectedNow = false;
      if (this.stopped) return;
      // A connection that was up counts as a fresh start: reconnect quickly.
      if (this.connections > before) failures = 0;
      failures++;
      const reason = lost instanceof Error ? lost.message : 'connection closed';
      if (failures === 1 || failures % 10 === 0) this.options.log.warn(`signal listener: ${reason}; reconnecting`);
      const base = Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.max(0, failures - 1));
      await this.pause(Math.round(base * (0.8 + Math.random() * 0.4)));
    }
  }

  /** One connection's life: connect, LISTEN, resync readers, then wait until it is lost. */
  private async session(): Promise<void> {
    const client = new pg.Client({
      connectionString: this.options.url,
      application_name: 'notifyd-listener',
      keepAlive: true,
      connectionTimeoutMillis: 10_000,
    });
    let lose: (err: Error) => void = () => undefined;
    const lost = new Promise<never>((_, reject) => (lose = reject));
    lost.catch(() => undefined);
    client.on('error', (err) => lose(err));
    client.on('end', () => lose(new Error('connection closed')));
    client.on('notification', (msg) => {
      if (msg.channel === SIGNAL_CHANNEL && msg.payload !== undefined) this.options.onSignal(msg.payload);
    });
    this.client = client;
    let heartbeat: NodeJS.Timeout | undefined;
    try {
      await Promise.race([client.connect(), lost]);
      if (this.stopped) return;
      await Promise.race([client.query(`LISTEN ${SIGNAL_CHANNEL}`), lost]);
      this.connections++;
      this.connectedNow = true;
      if (this.connections > 1) this.options.log.log('signal listener reconnected; readers resync');
      this.options.onConnected();
      heartbeat = setInterval(() => void this.beat(client, lose), this.options.heartbeatMs);
      heartbeat.unref();
      await lost;
    } finally {
      clearInterval(heartbeat);
      this.client = undefined;
      client.removeAllListeners('notification');
      // end() waits for the server's goodbye, which a half-open connection never sends.
      destroySocket(client);
      client.end().catch(() => undefined);
    }
  }

  private async beat(client: pg.Client, lose: (err: Error) => void): Promise<void> {
    const deadline = Math.min(this.options.heartbeatMs, MAX_HEARTBEAT_TIMEOUT_MS);
    let timer: NodeJS.Timeout | undefined;
    try {
      const answer = await Promise.race([
        client.query<{ listening: boolean }>(LISTENER_HEARTBEAT),
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            () => reject(new Error(`heartbeat unanswered for ${deadline} ms (half-open connection?)`)),
            deadline,
          );
        }),
      ]);
      if (!answer.rows[0]?.listening) lose(new Error('the LISTEN registration is gone'));
    } catch (err) {
      lose(err as Error);
    } finally {
      clearTimeout(timer);
    }
  }

  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wakeRetry = done;
    });
  }
}

function destroySocket(client: pg.Client): void {
  (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
}
