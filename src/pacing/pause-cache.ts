import type { ActivePause, PacingRepository } from './pacing.repository.js';

/**
 * The pauses in force on every lane, read from pacing_lanes and kept for a short time so that
 * the claim and the dispatcher do not read the table once per call. A pause written by another
 * replica is seen within `maxAgeMs` (plus one read); this process's own pauses are seen at once.
 * Concurrent readers share one query.
 */
export class PauseCache {
  private pauses = new Map<string, { until: number; pause: ActivePause }>();
  private loadedAt = 0;
  private loading: Promise<void> | undefined;

  constructor(private readonly repository: PacingRepository) {}

  async current(maxAgeMs: number): Promise<Map<string, ActivePause>> {
    if (Date.now() - this.loadedAt > maxAgeMs) await this.refresh();
    const now = Date.now();
    const live = new Map<string, ActivePause>();
    for (const [key, entry] of this.pauses) {
      if (entry.until > now) live.set(key, { ...entry.pause, remainingMs: entry.until - now });
    }
    return live;
  }

  /** Records a pause this process just wrote (or read back). */
  remember(pause: ActivePause): void {
    const until = Date.now() + pause.remainingMs;
    const known = this.pauses.get(pause.laneKey);
    if (!known || known.until < until) this.pauses.set(pause.laneKey, { until, pause });
  }

  forget(laneKey: string): void {
    this.pauses.delete(laneKey);
  }

  private refresh(): Promise<void> {
    this.loading ??= (async () => {
      const started = Date.now();
      try {
        const rows = await this.repository.activePauses();
        // Replace, not merge: a pause lifted by an operator on another replica must disappear.
        this.pauses = new Map(rows.map((p) => [p.laneKey, { until: started + p.remainingMs, pause: p }]));
        this.loadedAt = started;
      } finally {
        this.loading = undefined;
      }
    })();
    return this.loading;
  }
}
