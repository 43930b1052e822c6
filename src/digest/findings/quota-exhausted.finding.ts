import type { FindingRule } from '../digest.types.js';
import { describeHeld, laneHarm } from './harm.js';

/** The provider's daily or monthly quota is spent: the lane waits for the reset. */
export const quotaExhausted: FindingRule = (facts) =>
  facts.lanes
    .filter((l) => l.paused_until && l.pause_kind === 'quota_exhausted')
    .map((l) => {
      const harm = laneHarm(l, facts);
      return {
        severity: 'critical' as const,
        code: 'quota_exhausted',
        message: `Lane ${l.lane}: ${l.provider}'s quota is exhausted (${l.pause_reason ?? 'quota reached'}); nothing goes out on it until ${l.paused_until}; ${describeHeld(harm)}.`,
        action: `Raise the plan's quota with ${l.provider}, or set ${l.channel.toUpperCase()}_PROVIDER to another provider; the lane resumes by itself at the reset (POST /v1/admin/lanes/${l.lane}/resume once the quota is raised).`,
        evidence: { ...l },
        harm,
      };
    });
