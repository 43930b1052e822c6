import type { LaneDto } from './dto/lane.dto.js';
import type { LaneState } from './lane-state.service.js';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function presentLane(l: LaneState): LaneDto {
  return {
    lane: l.laneKey,
    channel: l.channel,
    provider: l.provider,
    project_id: l.projectId,
    active: l.active,
    rate: l.rate,
    burst: l.burst,
    effective_rate: l.effectiveRate,
    tokens: l.tokens,
    adaptive_rate: l.adaptiveRate,
    adaptive_until: iso(l.adaptiveUntil),
    paused: l.pausedUntil !== null,
    paused_until: iso(l.pausedUntil),
    pause_kind: l.pauseKind,
    pause_reason: l.pauseReason,
    paused_at: iso(l.pausedAt),
    quota: { remaining: l.quota.remaining, limit: l.quota.limit, reset_at: iso(l.quota.resetAt) },
    totals: { calls: l.totals.calls, tokens: l.totals.tokens, pauses: l.totals.pauses, waited_ms: l.totals.waitedMs },
  };
}
