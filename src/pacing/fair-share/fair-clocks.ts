/**
 * Fair-share virtual clocks held in process memory (issue 19: no shared row written per send).
 *
 * Policy (src/pacing/README.md, "Fair share inside a lane"): at one priority, projects sharing a paced lane are
 * served in virtual time. Each (project, channel, priority) has a clock; queueing `n` due jobs
 * moves it from max(clock, now) by n × step, and the jobs take the slots behind it.
 *
 * Each process moves its own clocks in memory and reconciles them with the shared table on a
 * short tick (FairShareSync): it adds what it advanced since the last tick to the shared
 * clock and adopts the result, which includes every other replica's advances. Within one tick
 * replicas do not see each other's advances, so a project sending through R API replicas at
 * once may take up to R times its share of the lane for one tick; a single replica is exact.
 */
export interface ClockKey {
  projectId: string;
  channel: string;
  priority: number;
}

interface LocalClock extends ClockKey {
  /** The clock, in this process's milliseconds (the database's time, see offsetMs). */
  nextAtMs: number;
  /** Seconds advanced since the last reconciliation started. */
  pendingSecs: number;
}

/** One clock's share of a reconciliation: add `spanSecs` to the shared clock. */
export interface ClockDelta extends ClockKey {
  spanSecs: number;
}

const keyOf = (k: ClockKey) => `${k.projectId}\u0000${k.channel}\u0000${k.priority}`;

export class FairClocks {
  private readonly clocks = new Map<string, LocalClock>();

  /** Moves a clock on by spanSecs from max(clock, nowMs); returns the new clock (ms). */
  advance(key: ClockKey, spanSecs: number, nowMs: number): number {
    const id = keyOf(key);
    let clock = this.clocks.get(id);
    if (!clock) {
      clock = {
        projectId: key.projectId,
        channel: key.channel,
        priority: key.priority,
        nextAtMs: nowMs,
        pendingSecs: 0,
      };
      this.clocks.set(id, clock);
    }
    clock.nextAtMs = Math.max(clock.nextAtMs, nowMs) + spanSecs * 1000;
    clock.pendingSecs += spanSecs;
    return clock.nextAtMs;
  }

  get dirty(): boolean {
    for (const c of this.clocks.values()) if (c.pendingSecs > 0) return true;
    return false;
  }

  /** What to add to the shared clocks; the pending spans start again from zero. */
  takeDeltas(): ClockDelta[] {
    const deltas: ClockDelta[] = [];
    for (const c of this.clocks.values()) {
      if (c.pendingSecs <= 0) continue;
      deltas.push({ projectId: c.projectId, channel: c.channel, priority: c.priority, spanSecs: c.pendingSecs });
      c.pendingSecs = 0;
    }
    return deltas;
  }

  /** A reconciliation that failed: its spans are owed to the shared clocks at the next one. */
  restore(deltas: readonly ClockDelta[]): void {
    for (const d of deltas) {
      const clock = this.clocks.get(keyOf(d));
      if (clock) clock.pendingSecs += d.spanSecs;
    }
  }

  /**
   * Adopts the shared clock after a reconciliation: it holds every replica's advances up to
   * that moment; what this process advanced while the statement ran (pendingSecs, again) goes
   * on top.
   */
  adopt(key: ClockKey, sharedMs: number): void {
    const clock = this.clocks.get(keyOf(key));
    if (clock) clock.nextAtMs = Math.max(clock.nextAtMs, sharedMs + clock.pendingSecs * 1000);
  }

  /** Forgets clocks that lie in the past and owe nothing: they would restart at `now` anyway. */
  evictIdle(nowMs: number): void {
    for (const [id, c] of this.clocks) if (c.pendingSecs === 0 && c.nextAtMs < nowMs) this.clocks.delete(id);
  }

  get size(): number {
    return this.clocks.size;
  }
}
