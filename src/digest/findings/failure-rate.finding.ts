import type { FindingRule, Severity } from '../digest.types.js';
import { adviseOnCause } from './failure-causes.js';
import { HARM_CRITICAL_MESSAGES, HARM_CRITICAL_PROJECTS } from './harm.js';

/** Failure rate at or above which the finding is critical / a warning (below: info). */
export const FAILURE_RATE_CRITICAL = 10;
export const FAILURE_RATE_WARNING = 2;

/**
 * Failed jobs in the window, with their top causes and the fix that fits each. Its severity
 * follows the rate, but a loss that stays narrow (one project, fewer than
 * HARM_CRITICAL_MESSAGES messages, e.g. one caller's misspelt addresses) is at most a warning:
 * it does not outrank trouble that holds every project's messages now.
 */
export const failureRate: FindingRule = ({ outcomes, failures, window, projects }) => {
  const sent = outcomes.reduce((n, o) => n + o.sent, 0);
  const failed = outcomes.reduce((n, o) => n + o.failed, 0);
  if (failed === 0) return [];
  const rate = Math.round((failed / (sent + failed)) * 10_000) / 100;
  const failedProjects = projects.filter((p) => p.failed > 0).map((p) => p.id);
  const wide = failed >= HARM_CRITICAL_MESSAGES || failedProjects.length >= HARM_CRITICAL_PROJECTS;
  const severity: Severity =
    rate >= FAILURE_RATE_CRITICAL ? (wide ? 'critical' : 'warning') : rate >= FAILURE_RATE_WARNING ? 'warning' : 'info';
  const top = failures.slice(0, 3).map((cause) => ({ cause, advice: adviseOnCause(cause) }));
  const [first] = top;
  const causeText = top
    .map(
      ({ cause, advice }) =>
        `"${cause.reason}" on ${cause.channel} (${cause.count}×, ${advice.kind}, project ${cause.project_ids.join(', ') || '?'}, e.g. job ${cause.sample_job_id})`,
    )
    .join('; ');
  return [
    {
      severity,
      code: 'failure_rate',
      message:
        `${failed} job(s) failed in the last ${window} (${rate} % of ${sent + failed} finished)` +
        (top.length ? `; top cause(s): ${causeText}.` : '.'),
      action: top.length
        ? top
            .map(
              ({ advice }, i) =>
                `${top.length > 1 ? `(${i + 1}) ` : ''}${advice.owner === 'caller' ? 'Caller' : 'Operator'}: ${advice.fix}`,
            )
            .join(' ')
        : 'List them with GET /v1/admin/jobs?status=failed (MCP list_jobs) and read one (job_timeline) to tell caller data from credentials; retry only once the cause is fixed.',
      evidence: {
        sent,
        failed,
        failure_rate_percent: rate,
        top_cause: first?.cause ?? null,
        cause_kinds: top.map(({ cause, advice }) => ({ reason: cause.reason, kind: advice.kind, owner: advice.owner })),
      },
      harm: {
        held: 0,
        lost: failed,
        projects: failedProjects.length,
        channels: [...new Set(outcomes.filter((o) => o.failed > 0).map((o) => o.channel))],
        seconds: null,
      },
      ...(first ? { owner: first.advice.owner, calls: top.flatMap(({ advice }) => advice.calls) } : {}),
      ...(first?.advice.owner === 'caller'
        ? {
            project_ids: [
              ...new Set(top.filter((t) => t.advice.owner === 'caller').flatMap((t) => t.cause.project_ids)),
            ],
          }
        : {}),
    },
  ];
};
