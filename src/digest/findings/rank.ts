import { type Finding, SEVERITIES, type Severity } from '../digest.types.js';

const ORDER: Record<Severity, number> = { critical: 0, warning: 1, info: 2 };

/** Critical → warning → info; stable, so rules keep their listed order within a severity. */
export function rankFindings(findings: readonly Finding[]): Finding[] {
  return findings
    .map((f, i) => ({ f, i }))
    .sort((a, b) => ORDER[a.f.severity] - ORDER[b.f.severity] || a.i - b.i)
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
