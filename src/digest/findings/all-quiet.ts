import type { DigestFacts, Finding } from '../digest.types.js';

/** The finding when no rule fired: says so, with the window's volume, so silence is never ambiguous. */
export function allQuiet(facts: DigestFacts): Finding {
  const sent = facts.outcomes.reduce((n, o) => n + o.sent, 0);
  const failed = facts.outcomes.reduce((n, o) => n + o.failed, 0);
  return {
    severity: 'info',
    code: 'all_quiet',
    message: `All quiet: ${sent} sent, ${failed} failed in the last ${facts.window}.`,
    action: 'Nothing to do.',
    evidence: { sent, failed },
  };
}
