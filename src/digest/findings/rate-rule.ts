import type { DigestFacts, Finding, FindingRule } from '../digest.types.js';

type Deliverability = DigestFacts['deliverability'];

/** What a rate rule says about a rate that reached its warning level. */
type Describe = (
  rate: number,
  critical: boolean,
  facts: { deliverability: Deliverability; window: DigestFacts['window'] },
) => Omit<Finding, 'severity'>;

/**
 * A rule on one email deliverability rate (bounces, spam complaints), in percent: nothing
 * below `warning` (or without a rate), a warning from there, critical from `critical` on.
 */
export function deliverabilityRateRule(
  rateOf: (d: Deliverability) => number | null,
  levels: { warning: number; critical: number },
  describe: Describe,
): FindingRule {
  return ({ deliverability, window }) => {
    const rate = rateOf(deliverability);
    if (rate === null || rate < levels.warning) return [];
    const critical = rate >= levels.critical;
    return [{ severity: critical ? 'critical' : 'warning', ...describe(rate, critical, { deliverability, window }) }];
  };
}
