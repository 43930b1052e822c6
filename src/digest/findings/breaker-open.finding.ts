import type { FindingRule } from '../digest.types.js';

/** A failover breaker is open: the primary provider rests and the fallback delivers. */
export const breakerOpen: FindingRule = ({ instance }) =>
  instance.breakers
    .filter((b) => b.state !== 'closed')
    .map((b) => ({
      severity: 'warning' as const,
      code: 'failover_breaker_open',
      message:
        `${b.channel}: the failover breaker is ${b.state === 'open' ? 'open' : 'probing'}; ${b.primary} is resting` +
        `${b.resting_seconds !== null ? ` for ${b.resting_seconds} s` : ''} and ${b.fallback ?? 'the fallback'} delivers. Nothing is lost.`,
      action: `Check ${b.primary}'s status page. If it keeps tripping, lower ${b.channel.toUpperCase()}_RATE_PER_SEC or swap ${b.channel.toUpperCase()}_PROVIDER and ${b.channel.toUpperCase()}_FALLBACK_PROVIDER.`,
      evidence: { ...b },
    }));
