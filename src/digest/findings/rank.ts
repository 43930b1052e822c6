import { type Finding, SEVERITIES, type Severity } from '../digest.types.js';
import { harmScore } from './harm.js';

const ORDER: Record<Severity, number> = { critical: 0, warning: 1, info: 2 };

/**
 * Critical → warning → info; within a severity, what costs people most now first: findings
 * with a harm (messages held or lost, how long, how many projects: harmScore), biggest first,
 * then the findings without one (how notifyd is set up) in their listed order. Stable.
 */
export function rankFindings(findings: readonly Finding[]): Finding[] {
  return findings
    .map((f, i) => ({ f, i, s: f.harm ? harmScore(f.harm) : 0 }))
    .sort((a, b) => ORDER[a.f.severity] - ORDER[b.f.severity] || b.s - a.s || a.i - b.i)
    .map(({ f }) => f);
}

export function countBySeverity(findings: readonly Finding[]): Record<Severity, number> {
  const counts = Object.fromEntries(SEVERITIES.map((s) => [s, 0])) as Record<Severity, number>;
  for (const f of findings) counts[f.severity]++;
  return counts;
}

/** Whether a finding reaches a threshold severity (critical reaches warning, etc.). */
export function reaches(severity: Severity, threshold: Severity): boolean {
  return ORDER[severity] <= ORDER[threshold];
}
