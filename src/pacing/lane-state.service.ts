import { Injectable } from '@nestjs/common';
import { AuditService } from '../audit/audit.service.js';
import { ApiError } from '../common/errors/api-error.js';
import { CHANNELS, type Channel } from '../domain/channels.js';
import { ConnectorRegistry } from '../connectors/connector-registry.js';
import { type Lane, laneKey } from '../domain/lane.js';
import { type LaneRow, PacingRepository, type PauseKind } from './pacing.repository.js';
import { type LanePause, PacingService } from './pacing.service.js';
import type { Actor } from '../domain/actor.js';

/** One lane as operators see it (admin endpoint, digest, metrics, MCP). */
export interface LaneState {
  laneKey: string;
  channel: Channel;
  provider: string;
  projectId: string | null;
  /** Whether the channel currently sends through this provider on this replica. */
  active: boolean;
  /** Configured tokens/s (0 = unpaced). */
  rate: number;
  /** Tokens an idle lane may spend at once. */
  burst: number;
  /** Rate in force now: the configured one, or lower while the provider's quota headers ask for it. */
  effectiveRate: number;
  /** Tokens available right now (null when unpaced). */
  tokens: number | null;
  adaptiveRate: number | null;
  adaptiveUntil: Date | null;
  pausedUntil: Date | null;
  pauseKind: PauseKind | null;
  pauseReason: string | null;
  pausedAt: Date | null;
  quota: { remaining: number | null; limit: number | null; resetAt: Date | null };
  totals: { calls: number; tokens: number; pauses: number; waitedMs: number };
}

/** A digest finding about a lane, ranked by the operators issue with the others. */
export interface LaneFinding {
  severity: 'critical' | 'warning' | 'info';
  laneKey: string;
  message: string;
  action: string;
}

/** How long an operator's pause lasts when it gives no duration_secs. */
export const OPERATOR_PAUSE_DEFAULT_SECS = 3_600;
const MAX_OPERATOR_PAUSE_SECS = 30 * 86_400;

/**
 * The operator's view of pacing: lane state, findings, and pause/resume by hand. Read by the
 * admin endpoint here and, through this exported service, by the digest, metrics and MCP.
 */
@Injectable()
export class LaneStateService {
  constructor(
    private readonly pacing: PacingService,
    private readonly repository: PacingRepository,
    private readonly registry: ConnectorRegistry,
    private readonly audit: AuditService,
  ) {}

  async lanes(): Promise<LaneState[]> {
    const rows = new Map((await this.repository.laneStates()).map((r) => [r.laneKey, r]));
    // Configured lanes appear even before their first call.
    for (const channel of this.registry.configuredChannels()) {
      const provider = this.registry.forChannel(channel)!.provider;
      const key = laneKey({ channel, provider });
      if (!rows.has(key)) rows.set(key, this.blankRow(key, channel, provider));
    }
    return [...rows.values()]
      .filter((r) => CHANNELS.includes(r.channel as Channel))
      .map((r) => this.present(r))
      .sort((a, b) => a.laneKey.localeCompare(b.laneKey));
  }

  async lane(key: string): Promise<LaneState> {
    const state = (await this.lanes()).find((l) => l.laneKey === key);
    if (!state)
      throw new ApiError(
        404,
        'not_found',
        `Lane '${key}' was not found: GET /v1/admin/lanes lists the lanes (channel:provider or channel:provider:project).`,
      );
    return state;
  }

  /** Findings for the digest: every paused lane, and lanes slowed by the provider's quota headers. */
  async findings(): Promise<LaneFinding[]> {
    const findings: LaneFinding[] = [];
    for (const l of await this.lanes()) {
      if (l.pausedUntil) {
        const until = l.pausedUntil.toISOString();
        if (l.pauseKind === 'quota_exhausted') {
          findings.push({
            severity: 'critical',
            laneKey: l.laneKey,
            message: `${l.laneKey} is paused until ${until}: the provider's daily or monthly quota is exhausted (${l.pauseReason ?? ''}). Jobs wait; no attempt is used.`,
            action: `Raise the plan's quota with ${l.provider}, or route ${l.channel} through another provider; the lane resumes by itself at the reset.`,
          });
        } else if (l.pauseKind === 'operator') {
          findings.push({
            severity: 'info',
            laneKey: l.laneKey,
            message: `${l.laneKey} was paused by an operator until ${until}.`,
            action: `POST /v1/admin/lanes/${l.laneKey}/resume when sending may go on.`,
          });
        } else {
          findings.push({
            severity: 'warning',
            laneKey: l.laneKey,
            message: `${l.laneKey} is paused until ${until} after the provider refused for rate (${l.pauseReason ?? l.pauseKind}).`,
            action: `Transient: nothing is lost. If it recurs, lower ${l.channel.toUpperCase()}_RATE_PER_SEC or raise the provider's limit.`,
          });
        }
      } else if (l.adaptiveRate !== null && l.adaptiveRate < l.rate) {
        findings.push({
          severity: 'info',
          laneKey: l.laneKey,
          message: `${l.laneKey} is slowed to ${round(l.adaptiveRate)}/s (configured ${l.rate}/s) by the provider's quota headers (${l.quota.remaining ?? '?'} left until ${l.quota.resetAt?.toISOString() ?? 'reset'}).`,
          action: `Expected near a quota window's end; if it lasts, lower ${l.channel.toUpperCase()}_RATE_PER_SEC to what the provider allows.`,
        });
      }
    }
    return findings;
  }

  async pause(key: string, seconds: number | undefined, reason: string | undefined, by: Actor): Promise<LaneState> {
    const lane = this.parse(key);
    const secs = seconds ?? OPERATOR_PAUSE_DEFAULT_SECS;
    if (secs > MAX_OPERATOR_PAUSE_SECS)
      throw ApiError.unprocessable(
        'validation_failed',
        `duration_secs must be at most ${MAX_OPERATOR_PAUSE_SECS} (30 days).`,
      );
    const pause: LanePause = await this.pacing.pause(lane, secs * 1000, 'operator', reason ?? `paused by ${by.actor}`);
    await this.audit.record({
      ...by,
      action: 'lane.paused',
      resource: key,
      metadata: { until: pause.until.toISOString(), kind: 'operator' },
    });
    return this.lane(key);
  }

  async resume(key: string, by: Actor): Promise<LaneState> {
    const lane = this.parse(key);
    await this.pacing.resume(lane);
    await this.audit.record({ ...by, action: 'lane.resumed', resource: key });
    return this.lane(key);
  }

  /** `channel:provider[:project]` → a lane; unknown channel → 404. */
  private parse(key: string): Lane {
    const [channel, provider, projectId, extra] = key.split(':');
    if (!CHANNELS.includes(channel as Channel) || !provider || extra !== undefined) {
      throw new ApiError(
        404,
        'not_found',
        `Lane '${key}' was not found: a lane is channel:provider (e.g. email:resend) or channel:provider:project; GET /v1/admin/lanes lists them.`,
      );
    }
    return { channel: channel as Channel, provider, ...(projectId ? { projectId } : {}) };
  }

  private present(r: LaneRow): LaneState {
    const channel = r.channel as Channel;
    const rate = this.pacing.rateOf({ channel });
    const burst = rate > 0 ? Math.max(1, rate * r.burstSecs) : 0;
    const adaptive = r.adaptiveRate !== null && r.adaptiveRate < rate ? r.adaptiveRate : null;
    return {
      laneKey: r.laneKey,
      channel,
      provider: r.provider,
      projectId: r.projectId,
      active: this.registry.forChannel(channel)?.provider === r.provider,
      rate,
      burst: round(burst),
      effectiveRate: round(adaptive ?? rate),
      tokens: rate > 0 ? round(r.tokens ?? burst) : null,
      adaptiveRate: adaptive === null ? null : round(adaptive),
      adaptiveUntil: adaptive === null ? null : r.adaptiveUntil,
      pausedUntil: r.pausedUntil,
      pauseKind: r.pauseKind,
      pauseReason: r.pauseReason,
      pausedAt: r.pausedAt,
      quota: { remaining: r.quotaRemaining, limit: r.quotaLimit, resetAt: r.quotaResetAt },
      totals: {
        calls: r.callsTotal,
        tokens: round(r.tokensTotal),
        pauses: r.pausesTotal,
        waitedMs: Math.round(r.waitedMsTotal),
      },
    };
  }

  private blankRow(key: string, channel: string, provider: string): LaneRow {
    return {
      laneKey: key,
      channel,
      provider,
      projectId: null,
      rate: 0,
      burstSecs: 1,
      adaptiveRate: null,
      adaptiveUntil: null,
      tokens: null,
      pausedUntil: null,
      pauseKind: null,
      pauseReason: null,
      pausedAt: null,
      quotaRemaining: null,
      quotaLimit: null,
      quotaResetAt: null,
      pausesTotal: 0,
      callsTotal: 0,
      tokensTotal: 0,
      waitedMsTotal: 0,
      updatedAt: new Date(),
    };
  }
}

const round = (n: number) => Math.round(n * 1000) / 1000;
