import { Inject, Injectable } from '@nestjs/common';
import type { AppConfig } from '../../config/app-config.js';
import { APP_CONFIG } from '../../config/config.module.js';
import { Db } from '../../database/db.js';
import { type Lane, laneKey } from '../../domain/lane.js';
import * as sql from './sql/breakers.sql.js';

/** A breaker as the digest, metrics and operators see it. */
export interface BreakerState {
  laneKey: string;
  channel: string;
  provider: string;
  projectId: string | null;
  fallbackProvider: string;
  restingUntil: Date;
  /** The primary rests now: its traffic goes to the fallback. */
  resting: boolean;
  restingSeconds: number;
  /** Times the breaker opened (closed → resting). */
  tripsTotal: number;
  /** Messages sent through the fallback instead of this primary. */
  failoversTotal: number;
  lastTrippedAt: Date;
  lastReason: string | null;
}

/** How long a replica trusts its copy of the resting primaries before reading them again. */
const VISIBILITY_MS = 1_000;

/**
 * The failover breaker, shared by every replica through `provider_breakers`: a transient or
 * rate-limited refusal by a channel's primary trips it, and the primary rests for
 * `<CHANNEL>_FAILOVER_COOLDOWN_SECS` while its traffic goes to `<CHANNEL>_FALLBACK_PROVIDER`.
 * A rest is extended by further trips, never shortened. Routing reads a copy at most 1 s old;
 * this process's own trips count at once.
 */
@Injectable()
export class FailoverBreaker {
  private resting = new Map<string, number>();
  private readAt = 0;
  private reading: Promise<void> | undefined;

  constructor(
    private readonly db: Db,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Brings the copy of resting primaries up to date (one small read per second at most). */
  async refresh(): Promise<void> {
    if (Date.now() - this.readAt < VISIBILITY_MS) return;
    this.reading ??= this.db
      .rows<{ laneKey: string; restingUntil: Date }>(sql.RESTING_BREAKERS)
      .then((rows) => {
        const fresh = new Map(rows.map((r) => [r.laneKey, new Date(r.restingUntil).getTime()]));
        // A trip of ours committed after the read started is kept.
        for (const [key, until] of this.resting)
          if (until > (fresh.get(key) ?? 0) && until > Date.now()) fresh.set(key, until);
        this.resting = fresh;
        this.readAt = Date.now();
      })
      .finally(() => (this.reading = undefined));
    await this.reading;
  }

  /** Whether the primary on this lane rests now (call refresh() first, once per batch). */
  isResting(lane: Lane): boolean {
    return (this.resting.get(laneKey(lane)) ?? 0) > Date.now();
  }

  /** Opens (or extends) the primary's rest after `moved` messages failed over; returns when it ends. */
  async trip(lane: Lane, fallbackProvider: string, moved: number, reason: string): Promise<Date> {
    const key = laneKey(lane);
    const cooldownMs = this.config.failover.cooldownMs[lane.channel];
    this.resting.set(key, Math.max(this.resting.get(key) ?? 0, Date.now() + cooldownMs));
    const row = await this.db.one<{ resting_until: Date }>(sql.TRIP_BREAKER, [
      key,
      lane.channel,
      lane.provider,
      lane.projectId ?? null,
      fallbackProvider,
      cooldownMs / 1000,
      moved,
      reason.slice(0, 500),
    ]);
    const until = new Date(row!.resting_until);
    this.resting.set(key, Math.max(this.resting.get(key) ?? 0, until.getTime()));
    return until;
  }

  /** Counts messages routed to the fallback while the primary rests. */
  async countFailovers(lane: Lane, moved: number): Promise<void> {
    if (moved > 0) await this.db.exec(sql.COUNT_FAILOVERS, [laneKey(lane), moved]);
  }

  /** Every breaker and its state, for the digest, metrics and operators. */
  async breakerStates(): Promise<BreakerState[]> {
    const rows = await this.db.rows<BreakerState>(sql.BREAKER_STATES);
    return rows.map((r) => ({
      ...r,
      restingUntil: new Date(r.restingUntil),
      lastTrippedAt: new Date(r.lastTrippedAt),
    }));
  }
}
