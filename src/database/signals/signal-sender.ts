/** Runs FLUSH_SIGNALS: own messages to send, foreign (xid, message) pairs to resolve. */
export type FlushStatement = (
  own: string[],
  foreignXids: string[],
  foreignMessages: string[],
) => Promise<{ sent: number; aborted: number; keptXids: string[]; keptMessages: string[] }>;

export interface SenderLog {
  warn(message: string): void;
}

/** Beyond this many buffered messages new ones are dropped (the readers' fallback poll covers them). */
const MAX_BUFFERED = 50_000;
/** While only open foreign transactions are waiting, re-check them less and less often, up to this. */
const MAX_RECHECK_MS = 50;
/** A failed flush is retried after this (doubling), so that a database outage is not hammered. */
const RETRY_MS = 100;
const MAX_RETRY_MS = 5_000;

export interface SenderStats {
  /** Flush statements run. */
  flushes: number;
  /** Notifications PostgreSQL sent (after de-duplication). */
  sent: number;
  /** Messages dropped: aborted transactions, buffer overflow, or lost at a failed final flush. */
  dropped: number;
}

/**
 * The after-commit signal buffer of one process (DESIGN.md §5, seed 003). Callers add
 * messages after their commit; one background flush at a time sends everything buffered with
 * one statement, and flushes start at least `minGapMs` apart. So under load many requests
 * share one notifying transaction (one turn of the cluster-wide NOTIFY lock) instead of each
 * taking it, and at low load a message waits at most one gap.
 */
export class SignalSender {
  /** Messages whose transaction has committed (notifyd's own). A Set: duplicates collapse here already. */
  private own = new Set<string>();
  /** Messages of transactions notifyd does not commit, keyed by xid + message. */
  private foreign = new Map<string, { xid: string; message: string }>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;
  private lastFlushAt = 0;
  private recheckMs = 0;
  private failures = 0;
  private closed = false;
  readonly stats: SenderStats = { flushes: 0, sent: 0, dropped: 0 };

  constructor(
    private readonly statement: FlushStatement,
    private readonly minGapMs: number,
    private readonly log: SenderLog,
  ) {}

  /** Buffers a message whose transaction has committed. */
  send(message: string): void {
    if (this.closed) return;
    if (!this.own.has(message) && this.size >= MAX_BUFFERED) {
      this.stats.dropped++;
      return;
    }
    this.own.add(message);
    this.schedule();
  }

  /** Buffers a message to send once transaction `xid` commits (dropped if it aborts). */
  sendWhenCommitted(xid: string, message: string): void {
    if (this.closed) return;
    if (!/^\d{1,20}$/.test(xid)) throw new Error(`'${xid}' is not a transaction id (pg_current_xact_id()::text)`);
    if (this.size >= MAX_BUFFERED) {
      this.stats.dropped++;
      return;
    }
    this.foreign.set(`${xid}\n${message}`, { xid, message });
    this.recheckMs = 0;
    this.schedule();
  }

  get size(): number {
    return this.own.size + this.foreign.size;
  }

  /** Sends what is buffered now (waiting for a flush in progress first). Foreign messages still open stay buffered. */
  async flush(): Promise<void> {
    if (this.flushing) await this.flushing;
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.size > 0) await this.run();
  }

  /** Final flush at shutdown; later sends are ignored. Foreign transactions still open are given up. */
  async close(): Promise<void> {
    this.closed = true;
    await this.flush().catch((err: Error) => this.log.warn(`final signal flush failed: ${err.message}`));
    this.stats.dropped += this.size;
    this.own.clear();
    this.foreign.clear();
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private schedule(): void {
    if (this.timer || this.flushing || this.size === 0) return;
    // Only open foreign transactions waiting: back off, they may stay open for a while.
    const gap = this.own.size > 0 && this.failures === 0 ? this.minGapMs : Math.max(this.minGapMs, this.recheckMs);
    const wait = Math.max(0, this.lastFlushAt + gap - Date.now());
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.run();
    }, wait);
  }

  private run(): Promise<void> {
    this.flushing = this.flushOnce().finally(() => {
      this.flushing = undefined;
      if (!this.closed) this.schedule();
    });
    return this.flushing;
  }

  private async flushOnce(): Promise<void> {
    const own = [...this.own];
    const foreign = [...this.foreign.values()];
    this.own = new Set();
    this.foreign = new Map();
    this.lastFlushAt = Date.now();
    this.stats.flushes++;
    try {
      const result = await this.statement(
        own,
        foreign.map((f) => f.xid),
        foreign.map((f) => f.message),
      );
      this.failures = 0;
      this.stats.sent += result.sent;
      this.stats.dropped += result.aborted;
      for (let i = 0; i < result.keptXids.length; i++) {
        const f = { xid: result.keptXids[i], message: result.keptMessages[i] };
        this.foreign.set(`${f.xid}\n${f.message}`, f);
      }
      if (result.keptXids.length > 0) this.recheckMs = Math.min(MAX_RECHECK_MS, Math.max(1, this.recheckMs * 2));
    } catch (err) {
      // Put everything back (new messages may have arrived meanwhile) and try again later.
      this.failures++;
      for (const m of own) this.own.add(m);
      for (const f of foreign) this.foreign.set(`${f.xid}\n${f.message}`, f);
      this.recheckMs = Math.min(MAX_RETRY_MS, RETRY_MS * 2 ** (this.failures - 1));
      if (this.failures === 1 || this.failures % 20 === 0) {
        this.log.warn(
          `could not send ${this.size} signal(s), retrying in ${this.recheckMs} ms: ${(err as Error).message}`,
        );
      }
      if (this.closed) throw err;
    }
  }
}
