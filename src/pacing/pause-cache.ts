import type { ActivePause, PacingRepository } from './pacing.repository.js';

/** How long this process trusts its own pause over a read that does not show it (yet). */
const OWN_PAUSE_GRACE_MS = 2_000;

/**
 * The pauses in force on every lane, read from pacing_lanes and kept for a short time so that
 * the claim and the dispatcher do not read the table once per call. A pause written by another
 * replica is seen within `maxAgeMs` (plus one read); this process's own pauses are seen at once.
 * Concurrent readers share one query.
 */
export class PauseCache {
  private pauses = new Map<string, { until: number; pause: ActivePause; localAt?: number }>();
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
        // Replace, so that a pause lifted by an operator on another replica disappears; but keep
        // this process's own recent pauses, whose write may not have committed when we read.
        const next = new Map(rows.map((p) => [p.laneKey, { until: started + p.remainingMs, pause: p } as { until: number; pause: ActivePause; localAt?: number }]));
        for (const [key, entry] of this.pauses) {
          if (entry.localAt !== undefined && entry.localAt > started - OWN_PAUSE_GRACE_MS && !next.has(key)) next.set(key, entry);
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
