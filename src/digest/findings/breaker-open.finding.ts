import type { FindingRule } from '../digest.types.js';

/**
 * A failover breaker is open: the primary provider rests and the fallback delivers. A breaker
 * trips on errors and timeouts, so the advice about the rate reads the primary's instance lane:
 * an unpaced lane (rate 0) is told to get a rate, never to "lower" one it does not have.
 */
export const breakerOpen: FindingRule = ({ instance, lanes }) =>
  instance.breakers
    .filter((b) => b.state !== 'closed')
    .map((b) => {
      const CHANNEL = b.channel.toUpperCase();
      const lane = lanes.find((l) => l.channel === b.channel && l.provider === b.primary && l.project_id === null);
      const pace = !lane
        ? `If it trips under load, pace the lane: ${CHANNEL}_RATE_PER_SEC.`
        : lane.paced
          ? `If it trips under load, lower ${CHANNEL}_RATE_PER_SEC below ${lane.rate_text}.`
          : `Lane ${lane.lane} is unpaced (${CHANNEL}_RATE_PER_SEC=0): if it trips under load, set ${CHANNEL}_RATE_PER_SEC to the rate your ${b.primary} plan allows.`;
      return {
        severity: 'warning' as const,
        code: 'failover_breaker_open',
        message:
          `${b.channel}: the failover breaker is ${b.state === 'open' ? 'open' : 'probing'}; ${b.primary} is resting` +
          `${b.resting_seconds !== null ? ` for ${b.resting_seconds} s` : ''} and ${b.fallback ?? 'the fallback'} delivers. Nothing is lost.`,
        action: `Operator: check ${b.primary}'s status page. ${pace} If it keeps tripping, swap ${CHANNEL}_PROVIDER and ${CHANNEL}_FALLBACK_PROVIDER.`,
        evidence: { ...b, lane: lane ? { lane: lane.lane, paced: lane.paced, rate_text: lane.rate_text } : null },
        owner: 'operator' as const,
      };
    });
