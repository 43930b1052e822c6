import type { FindingRule } from '../digest.types.js';

/**
 * A paused lane (after a 429, a spent quota window, or by an operator). Quota exhaustion has
 * its own, critical, finding (quota-exhausted.finding.ts).
 */
export const lanePaused: FindingRule = ({ lanes }) =>
  lanes
    .filter((l) => l.paused_until && l.pause_kind !== 'quota_exhausted')
    .map((l) =>
      l.pause_kind === 'operator'
        ? {
            severity: 'info' as const,
            code: 'lane_paused',
            message: `Lane ${l.lane} was paused by an operator until ${l.paused_until} (${l.pause_reason ?? 'no reason given'}); its jobs wait.`,
            action: `POST /v1/admin/lanes/${l.lane}/resume when sending may go on.`,
            evidence: { ...l },
          }
        : {
            severity: 'warning' as const,
            code: 'lane_paused',
            message: `Lane ${l.lane} is paused until ${l.paused_until}: ${l.provider} refused for rate (${l.pause_reason ?? l.pause_kind}). Jobs wait; no attempt is used.`,
            action: `Transient, nothing is lost. If it recurs, lower ${l.channel.toUpperCase()}_RATE_PER_SEC or raise the limit with ${l.provider}; POST /v1/admin/lanes/${l.lane}/resume lifts it now.`,
            evidence: { ...l },
          },
    );
