import { isoOrNull } from '../common/http/iso-timestamp.js';
import type { LaneDto } from './dto/lane.dto.js';
import type { LaneState } from './lane-state.service.js';

/**
 * A rate as a person reads it: 0 means "no pacing" in the configuration, but reads as both
 * "unlimited" and "stopped", so the words say which.
 */
export function rateText(rate: number): string {
  return rate > 0 ? `${rate}/s` : 'unpaced';
}

export function presentLane(l: LaneState): LaneDto {
  return {
    lane: l.laneKey,
    channel: l.channel,
    provider: l.provider,
    project_id: l.projectId,
    active: l.active,
    rate: l.rate,
    paced: l.rate > 0,
    rate_text: rateText(l.effectiveRate),
    burst: l.burst,
    effective_rate: l.effectiveRate,
    tokens: l.tokens,
    adaptive_rate: l.adaptiveRate,
    adaptive_until: isoOrNull(l.adaptiveUntil),
    paused: l.pausedUntil !== null,
    paused_until: isoOrNull(l.pausedUntil),
    pause_kind: l.pauseKind,
    pause_reason: l.pauseReason,
    paused_at: isoOrNull(l.pausedAt),
    quota: { remaining: l.quota.remaining, limit: l.quota.limit, reset_at: isoOrNull(l.quota.resetAt) },
    totals: { calls: l.totals.calls, tokens: l.totals.tokens, pauses: l.totals.pauses, waited_ms: l.totals.waitedMs },
  };
}
