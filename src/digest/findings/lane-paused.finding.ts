import type { Finding, FindingRule, Harm } from '../digest.types.js';
import { describeHeld, duration, harmSeverity, laneHarm } from './harm.js';

/**
 * A paused lane (after a 429, a spent quota window, or by an operator). Quota exhaustion has
 * its own, critical, finding (quota-exhausted.finding.ts). A pause the provider imposed is
 * ranked by what it holds (harmSeverity): a short pause holding a few messages is info, one
 * holding every project's email for a quarter of an hour is critical. How long counts what is
 * still to come: the oldest held message will be late by its lateness now plus the rest of the
 * pause. An operator's pause is deliberate and stays info whatever it holds.
 */
export const lanePaused: FindingRule = (facts) =>
  facts.lanes
    .filter((l) => l.paused_until && l.pause_kind !== 'quota_exhausted')
    .map((l): Finding => {
      const harm = laneHarm(l, facts);
      const remaining = Math.max(0, Math.round((Date.parse(l.paused_until!) - Date.parse(facts.generated_at)) / 1000));
      const CHANNEL = l.channel.toUpperCase();
      const resume = { tool: 'resume_lane', arguments: { lane: l.lane }, admin: true, purpose: 'lift the pause now' };
      if (l.pause_kind === 'operator') {
        return {
          severity: 'info',
          code: 'lane_paused',
          message: `Lane ${l.lane} was paused by an operator until ${l.paused_until} (${l.pause_reason ?? 'no reason given'}); its jobs wait: ${describeHeld(harm)}.`,
          action: `Operator: POST /v1/admin/lanes/${l.lane}/resume (MCP resume_lane) when sending may go on.`,
          evidence: { ...l },
          harm,
          owner: 'operator',
          calls: [resume],
        };
      }
      const projected: Harm = harm.held > 0 ? { ...harm, seconds: (harm.seconds ?? 0) + remaining } : harm;
      const pace = l.paced
        ? `Lane ${l.lane} is paced at ${l.rate_text} and ${l.provider} still refused: lower ${CHANNEL}_RATE_PER_SEC below ${l.rate_text} (to the limit of your ${l.provider} plan), or raise that limit with ${l.provider}.`
        : `Lane ${l.lane} is unpaced (${CHANNEL}_RATE_PER_SEC=0): notifyd calls ${l.provider} as fast as it answers, so ${l.provider}'s own limit stops it with 429s. ` +
          `Set ${CHANNEL}_RATE_PER_SEC to the rate your ${l.provider} plan allows (and restart), or raise that limit with ${l.provider}.`;
      return {
        severity: harmSeverity(projected),
        code: 'lane_paused',
        message:
          `Lane ${l.lane} is paused until ${l.paused_until} (${duration(remaining)} from now): ${l.provider} refused for rate (${l.pause_reason ?? l.pause_kind}). ` +
          `Every job on it waits, no attempt is used, nothing is lost; ${describeHeld(harm)}, held until the pause ends.`,
        action:
          `Operator: it resumes by itself at ${l.paused_until}, most urgent jobs first. ${pace} ` +
          `POST /v1/admin/lanes/${l.lane}/resume (MCP resume_lane) lifts it now, but only helps once ${l.provider}'s window has reset (else the next call pauses it again).`,
        evidence: { ...l, pause_remaining_seconds: remaining },
        harm: projected,
        owner: 'operator',
        calls: [
          { tool: 'list_lanes', arguments: {}, admin: false, purpose: 'see the pause, its reason and the rate' },
          resume,
        ],
      };
    });
