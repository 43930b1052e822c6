import { Inject, Injectable, Logger } from '@nestjs/common';
import { AuditService } from '../audit/audit.service.js';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import type { Channel } from '../domain/channels.js';
import type { QuotaHint } from '../connectors/connector.js';
import { ConnectorRegistry } from '../connectors/connector-registry.js';
import { SignalsService } from '../database/signals/signals.service.js';
import { adaptiveDecision } from './adaptive-rate.js';
import { type Lane, laneKey } from '../domain/lane.js';
import { type ActivePause, PacingRepository, type PauseKind } from './pacing.repository.js';
import { PauseCache } from './pause-cache.js';

export type { PauseKind };

export interface LanePause {
  until: Date;
  kind: PauseKind;
  reason: string;
}

/** The answer to acquire(): go (after waiting for the reserved slot), the lane is paused, or the worker is stopping. */
export type Permit =
  { granted: true; waitedMs: number } | { granted: false; pause: LanePause } | { granted: false; stopping: true };

/** Lanes the claim must skip: whole channels, and project-specific lanes as `project/channel`. */
export interface PausedForClaim {
  channels: string[];
  projectChannels: string[];
}

/**
 * How far ahead a call may reserve its slot in the shared bucket. Reserving (rather than
 * polling for tokens) gives one round trip per call and first-come order across replicas, so
 * the horizon is wide: every call in flight on every replica normally fits in it (8 calls per
 * replica at 1/s is 8 s ahead per replica). It only bounds how long jobs wait in processing on
 * a lane far slower than the calls queued for it; beyond it callers retry with jitter.
 */
const RESERVE_AHEAD_SECS = 30;
/** A pause written by another replica is seen by this one within this time (plus one read). */
export const PAUSE_VISIBILITY_MS = 200;
/** Longest a job held back by a pause waits before the claim looks at it again. */
const REQUEUE_MAX_MS = 60_000;
/** An adaptive rate is rewritten only when it moves by more than this share. */
const ADAPTIVE_HYSTERESIS = 0.1;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Sleeps ms in short slices; false as soon as the caller is stopping (shutdown). */
async function wait(ms: number, control?: { readonly stopping: boolean }): Promise<boolean> {
  for (let left = ms; left > 0; left -= 250) {
    if (control?.stopping) return false;
    await sleep(Math.min(250, left));
  }
  return !control?.stopping;
}

/**
 * Pacing: the provider's quota as a resource shared by every replica. A token bucket per lane
 * lives in PostgreSQL (pacing_lanes); each provider call reserves its slot with one UPDATE.
 * Pauses (429, quota exhausted, operator) live in the same row, so every replica stops
 * claiming and calling the lane. See src/pacing/README.md.
 */
/**
 * Sent after a lane's pause was written or lifted (key: the lane). A hint for live views (the
 * console's admin event stream); replicas still learn pauses through PauseCache, not this.
 */
export const LANES_CHANGED = 'lanes.changed';

@Injectable()
export class PacingService {
  private readonly logger = new Logger('Pacing');
  private readonly known = new Set<string>();
  private readonly pauses: PauseCache;
  /** The adaptive rate this process last saw on each lane (from acquire and its own writes). */
  private readonly effectiveRate = new Map<string, number>();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly repository: PacingRepository,
    private readonly registry: ConnectorRegistry,
    private readonly audit: AuditService,
    private readonly signals: SignalsService,
  ) {
    this.pauses = new PauseCache(repository);
  }

  /** The configured rate of a lane in tokens/s; 0 = unpaced (in_app always). */
  rateOf(lane: Pick<Lane, 'channel'>): number {
    return this.config.pacing.rates[lane.channel] ?? 0;
  }

  /**
   * The most tokens one call may take and still go out within the bucket (rate × PACING_BURST_SECS,
   * at least 1); Infinity on an unpaced lane. A call costing more would reach the provider as
   * one burst larger than its rate allows, so the dispatcher cuts such calls.
   */
  capacityOf(lane: Pick<Lane, 'channel'>): number {
    const rate = this.rateOf(lane);
    return rate > 0 ? Math.max(1, rate * this.config.pacing.burstSecs) : Infinity;
  }

  /**
   * Takes `cost` tokens for one provider call on the lane, waiting for the reserved slot, or
   * reports the pause in force. Unpaced lanes and calls of cost 0 take no tokens but still honour pauses.
   */
  async acquire(lane: Lane, cost: number, control?: { readonly stopping: boolean }): Promise<Permit> {
    const key = laneKey(lane);
    const rate = this.rateOf(lane);
    // A call that makes no request (a push to subscribers without devices) takes no token either.
    if (rate <= 0 || cost <= 0) return this.pauseCheck(key);
    let waitedMs = 0;
    for (;;) {
      if (!this.known.has(key)) {
        await this.repository.ensureLane(key, lane);
        this.known.add(key);
      }
      const taken = await this.repository.take(key, rate, this.config.pacing.burstSecs, cost, RESERVE_AHEAD_SECS);
      if (!taken) {
        this.known.delete(key); // the row was removed under us: create it again
        continue;
      }
      this.effectiveRate.set(key, taken.rate);
      if (taken.pausedUntil) {
        const pause: LanePause = {
          until: taken.pausedUntil,
          kind: taken.pauseKind ?? 'rate_limited',
          reason: taken.pauseReason ?? 'paused',
        };
        this.pauses.remember(this.asActive(key, lane, pause, taken.waitMs));
        return { granted: false, pause };
      }
      if (!taken.granted) {
        // Saturated beyond the reservation horizon: come back when a slot can be reserved.
        // Jitter spreads the callers of every replica that were refused together.
        const ms = Math.max(5, taken.waitMs) + Math.random() * 1_000;
        waitedMs += ms;
        if (!(await wait(ms, control))) return { granted: false, stopping: true };
        continue;
      }
      if (taken.waitMs > 0) {
        waitedMs += taken.waitMs;
        // Stopping: the reserved slot is given up and the jobs go back unsent.
        if (!(await wait(taken.waitMs, control))) return { granted: false, stopping: true };
      }
      // The slot was reserved before this moment: a pause set meanwhile wins over it. This
      // process's own pauses are known at once; another replica's are read again only after a
      // wait longer than the cache's own staleness (a shorter one adds no blind spot).
      const check = await this.pauseCheck(key, taken.waitMs > PAUSE_VISIBILITY_MS ? PAUSE_VISIBILITY_MS : Infinity);
      if (!check.granted) return check;
      return { granted: true, waitedMs };
    }
  }

  /**
   * Pauses a lane for `ms` (a 429's Retry-After, a quota reset, an operator). A longer pause in
   * force is never shortened. Every replica stops calling and claiming the lane.
   */
  async pause(lane: Lane, ms: number, kind: PauseKind, reason: string): Promise<LanePause> {
    const key = laneKey(lane);
    // This process stops at once, before the write: its other calls in flight must not race past it.
    this.pauses.remember(this.asActive(key, lane, { until: new Date(Date.now() + ms), kind, reason }, ms));
    const pause = await this.repository.pause(key, lane, Math.max(ms, 1) / 1000, kind, reason.slice(0, 500));
    this.known.add(key);
    this.pauses.remember(this.asActive(key, lane, pause, pause.until.getTime() - Date.now()));
    this.pauses.committed(key);
    this.signals.send(LANES_CHANGED, key);
    if (kind === 'quota_exhausted') {
      this.logger.warn(`${key} paused until ${pause.until.toISOString()}: ${pause.reason}`);
      await this.audit.record({
        actor: 'system',
        action: 'lane.paused',
        resource: key,
        metadata: { kind, until: pause.until.toISOString() },
      });
    }
    return pause;
  }

  /** When a job held back by this pause should be claimable again. */
  requeueAt(pause: LanePause): Date {
    return new Date(Math.min(pause.until.getTime(), Date.now() + REQUEUE_MAX_MS));
  }

  /** Lifts a lane's pause (operator). False when the lane has no state yet. */
  async resume(lane: Lane): Promise<boolean> {
    const key = laneKey(lane);
    const found = await this.repository.resume(key);
    this.pauses.forget(key);
    if (found) this.signals.send(LANES_CHANGED, key);
    return found;
  }

  /**
   * Adaptive pacing: reads the quota a provider announced on a successful call and slows the
   * lane (for every replica) before it reaches a 429, or pauses it until the reset when the
   * window's quota is spent.
   */
  async observe(lane: Lane, hint: QuotaHint | undefined): Promise<void> {
    if (!this.config.pacing.adaptive || !hint) return;
    const rate = this.rateOf(lane);
    if (rate <= 0) return;
    const key = laneKey(lane);
    const decision = adaptiveDecision(hint, rate);
    const current = this.effectiveRate.get(key) ?? rate;
    const resetSecs = hint.resetAt ? Math.max(0, (hint.resetAt.getTime() - Date.now()) / 1000) : undefined;
    const quota = { remaining: hint.remaining, limit: hint.limit, resetSecs };
    switch (decision.action) {
      case 'none':
        return;
      case 'pause':
        await this.pause(lane, decision.ms, 'quota_headers', decision.reason);
        return;
      case 'clear':
        if (current >= rate) return;
        this.effectiveRate.set(key, rate);
        await this.repository.setAdaptive(key, null, quota);
        return;
      case 'slow':
        if (Math.abs(decision.rate - current) <= current * ADAPTIVE_HYSTERESIS) return;
        this.effectiveRate.set(key, decision.rate);
        await this.repository.setAdaptive(key, { rate: decision.rate, seconds: decision.ms / 1000 }, quota);
        return;
    }
  }

  /** Lanes paused now that this replica would send on, for the claim to skip. */
  async pausedForClaim(): Promise<PausedForClaim> {
    const channels = new Set<string>();
    const projectChannels = new Set<string>();
    const paused = [...(await this.pauses.current(PAUSE_VISIBILITY_MS)).values()];
    for (const p of paused) {
      // A pause of a provider this replica does not use for the channel does not hold its jobs.
      // (A project's own lane holds that project's jobs whatever the instance's provider.)
      if (!p.projectId && this.registry.forChannel(p.channel as Channel)?.provider !== p.provider) continue;
      // Nor does the primary's pause while the channel's fallback is free to take its traffic.
      const fallback = this.registry.fallbackFor(p.channel as Channel)?.provider;
      if (
        fallback &&
        !paused.some(
          (q) => q.channel === p.channel && q.provider === fallback && (q.projectId ?? null) === (p.projectId ?? null),
        )
      )
        continue;
      if (p.projectId) projectChannels.add(`${p.projectId}/${p.channel}`);
      else channels.add(p.channel);
    }
    return { channels: [...channels], projectChannels: [...projectChannels] };
  }

  /** The pause in force on a lane (read through the short cache), if any. */
  async pauseOf(lane: Lane): Promise<LanePause | undefined> {
    const check = await this.pauseCheck(laneKey(lane));
    return check.granted || !('pause' in check) ? undefined : check.pause;
  }

  /** The pause on a lane as this process knows it, read again when older than maxAgeMs. */
  private async pauseCheck(key: string, maxAgeMs = PAUSE_VISIBILITY_MS): Promise<Permit> {
    const pause = (await this.pauses.current(maxAgeMs)).get(key) ?? this.pauses.peek(key);
    if (!pause) return { granted: true, waitedMs: 0 };
    return {
      granted: false,
      pause: { until: new Date(Date.now() + pause.remainingMs), kind: pause.kind, reason: pause.reason ?? 'paused' },
    };
  }

  private asActive(key: string, lane: Lane, pause: LanePause, remainingMs: number): ActivePause {
    return {
      laneKey: key,
      channel: lane.channel,
      provider: lane.provider,
      projectId: lane.projectId ?? null,
      remainingMs,
      kind: pause.kind,
      reason: pause.reason,
    };
  }
}
