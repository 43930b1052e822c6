/** The answer to a request for one more unit of a budget. */
export type RateDecision = { allowed: true } | { allowed: false; retryAfterSecs: number };

/** The counts a reconciliation sends and asks about (one window). */
export interface WindowSync {
  windowStart: number;
  /** Scopes whose count this process has not written yet, with their count in the window. */
  writes: { scope: string; admitted: number }[];
  /** Every scope this process used in the window: whose totals it wants. */
  reads: string[];
}

interface ScopeCount {
  window: number;
  /** Admitted here in the window. */
  admitted: number;
  /** The value of `admitted` last written to the shared store. */
  written: number;
  /** Admitted by the other processes in the window, as of the last reconciliation. */
  others: number;
}

/**
 * Fixed windows (one minute by default) aligned to the clock, one count per scope: a request is
 * admitted while this process's count plus what the others had admitted at the last
 * reconciliation stays under the limit. Aligned windows are what lets several processes count
 * the same window; Retry-After is the time left in it. Pure logic: the caller gives the time,
 * and reconciles through `pending` / `reconciled` (or never, for a per-process limit).
 */
export class WindowCounts {
  private readonly scopes = new Map<string, ScopeCount>();
  private sweptWindow = 0;

  constructor(readonly windowMs = 60_000) {}

  take(scope: string, limit: number, now: number): RateDecision {
    const window = Math.floor(now / this.windowMs);
    this.sweep(window);
    let entry = this.scopes.get(scope);
    if (!entry || entry.window !== window) {
      entry = { window, admitted: 0, written: 0, others: 0 };
      this.scopes.set(scope, entry);
    }
    if (entry.admitted + entry.others < limit) {
      entry.admitted++;
      return { allowed: true };
    }
    return { allowed: false, retryAfterSecs: Math.max(1, Math.ceil(((window + 1) * this.windowMs - now) / 1000)) };
  }

  /**
   * What to write and read now: the counts not written yet, and the totals of every scope used
   * in the current window (the others may have spent them meanwhile). Undefined when this
   * process has not been asked for any scope in the current window: an idle process has nothing
   * to reconcile.
   */
  pending(now: number): WindowSync | undefined {
    const window = Math.floor(now / this.windowMs);
    this.sweep(window);
    const writes: WindowSync['writes'] = [];
    const reads: string[] = [];
    for (const [scope, entry] of this.scopes) {
      if (entry.window !== window) continue;
      reads.push(scope);
      if (entry.admitted !== entry.written) writes.push({ scope, admitted: entry.admitted });
    }
    return reads.length ? { windowStart: window * this.windowMs, writes, reads } : undefined;
  }

  /** After a sync: its writes are stored, and `others` holds the other processes' totals per scope. */
  reconciled(sync: WindowSync, others: ReadonlyMap<string, number>): void {
    const window = sync.windowStart / this.windowMs;
    for (const { scope, admitted } of sync.writes) {
      const entry = this.scopes.get(scope);
      if (entry?.window === window) entry.written = admitted;
    }
    for (const scope of sync.reads) {
      const entry = this.scopes.get(scope);
      if (entry?.window === window) entry.others = others.get(scope) ?? 0;
    }
  }

  get size(): number {
    return this.scopes.size;
  }

  /** Forgets past windows, once per window: memory holds the scopes used in this minute only. */
  private sweep(window: number): void {
    if (window === this.sweptWindow) return;
    this.sweptWindow = window;
    for (const [scope, entry] of this.scopes) if (entry.window !== window) this.scopes.delete(scope);
  }
}
