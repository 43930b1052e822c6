import type { FindingRule } from '../digest.types.js';
import { describeHeld, harmSeverity, laneHarm } from './harm.js';

/**
 * A paused lane (after a 429, a spent quota window, or by an operator). Quota exhaustion has
 * its own, critical, finding (quota-exhausted.finding.ts). A pause the provider imposed is
 * ranked by what it holds (harmSeverity): a short pause holding a few messages is info, one
 * holding every project's email for a quarter of an hour is critical. An operator's pause is
 * deliberate and stays info whatever it holds.
 */
export const lanePaused: FindingRule = (facts) =>
  facts.lanes
    .filter((l) => l.paused_until && l.pause_kind !== 'quota_exhausted')
    .map((l) => {
      const harm = laneHarm(l, facts);
      return l.pause_kind === 'operator'
        ? {
            severity: 'info' as const,
            code: 'lane_paused',
            message: `Lane ${l.lane} was paused by an operator until ${l.paused_until} (${l.pause_reason ?? 'no reason given'}); its jobs wait: ${describeHeld(harm)}.`,
            action: `POST /v1/admin/lanes/${l.lane}/resume when sending may go on.`,
            evidence: { ...l },
            harm,
          }
        : {
            severity: harmSeverity(harm),
            code: 'lane_paused',
            message:
              `Lane ${l.lane} is paused until ${l.paused_until}: ${l.provider} refused for rate (${l.pause_reason ?? l.pause_kind}). ` +
              `Its jobs wait, no attempt is used; ${describeHeld(harm)}.`,
            action:
              `It resumes by itself. If it recurs, lower ${l.channel.toUpperCase()}_RATE_PER_SEC or raise the limit with ${l.provider}; ` +
              `POST /v1/admin/lanes/${l.lane}/resume lifts it now; urgent jobs go first on resume.`,
            evidence: { ...l },
            harm,
          };
    });
