import type { ActivePause, PacingRepository } from './pacing.repository.js';

/** How long this process trusts its own pause, not yet confirmed written, over a read that does not show it. */
const OWN_PAUSE_GRACE_MS = 2_000;

interface Entry {
  until: number;
  pause: ActivePause;
  /** Set for this process's own pauses: when it decided, and when the write committed. */
  localAt?: number;
  committedAt?: number;
}

/**
 * The pauses in force on every lane, read from pacing_lanes and kept for a short time so that
 * the claim and the dispatcher do not read the table once per call. A pause written by another
 * replica is seen within `maxAgeMs` (plus one read); this process's own pauses are seen at once.
 * Concurrent readers share one query.
 */
export class PauseCache {
  private pauses = new Map<string, Entry>();
  private loadedAt = 0;
  private loading: Promise<void> | undefined;
  private loadingSince = 0;

  constructor(private readonly repository: PacingRepository) {}

  async current(maxAgeMs: number): Promise<Map<string, ActivePause>> {
    const oldest = Date.now() - maxAgeMs;
    if (this.loadedAt < oldest) {
      // A read already in flight will do if it started recently enough; an older one may have
      // missed a pause committed since, so read again after it.
      if (this.loading && this.loadingSince < oldest) await this.loading.catch(() => undefined);
      await this.refresh();
    }
    const now = Date.now();
    const live = new Map<string, ActivePause>();
    for (const [key, entry] of this.pauses) {
      if (entry.until > now) live.set(key, { ...entry.pause, remainingMs: entry.until - now });
    }
    return live;
  }

  /** What this process knows now, without reading the table. */
  peek(laneKey: string): ActivePause | undefined {
    const entry = this.pauses.get(laneKey);
    const now = Date.now();
    return entry && entry.until > now ? { ...entry.pause, remainingMs: entry.until - now } : undefined;
  }

  /** Records a pause this process just wrote (or read back). */
  remember(pause: ActivePause): void {
    const until = Date.now() + pause.remainingMs;
    const known = this.pauses.get(pause.laneKey);
    if (!known || known.until < until) this.pauses.set(pause.laneKey, { until, pause, localAt: Date.now() });
  }

  /** This process's pause on the lane is now in the table: a read started later is the truth. */
  committed(laneKey: string): void {
    const entry = this.pauses.get(laneKey);
    if (entry?.localAt !== undefined) entry.committedAt = Date.now();
  }

  forget(laneKey: string): void {
    this.pauses.delete(laneKey);
  }

  private refresh(): Promise<void> {
    if (this.loading) return this.loading;
    const started = Date.now();
    this.loadingSince = started;
    this.loading = (async () => {
      try {
        const rows = await this.repository.activePauses();
        // Replace, so that a pause lifted on another replica (or over) disappears; but keep
        // this process's own pauses whose write had not committed when this read started.
        const next = new Map<string, Entry>(rows.map((p) => [p.laneKey, { until: started + p.remainingMs, pause: p }]));
        for (const [key, entry] of this.pauses) {
          if (next.has(key) || entry.localAt === undefined) continue;
          const unconfirmed =
            entry.committedAt === undefined
              ? entry.localAt > started - OWN_PAUSE_GRACE_MS
              : started <= entry.committedAt;
          if (unconfirmed) next.set(key, entry);
        }
        this.pauses = next;
        this.loadedAt = started;
      } finally {
        this.loading = undefined;
      }
    })();
    return this.loading;
  }
}
