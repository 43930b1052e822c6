import type { FindingRule, Severity } from '../digest.types.js';

/** Failure rate at or above which the finding is critical / a warning (below: info). */
export const FAILURE_RATE_CRITICAL = 10;
export const FAILURE_RATE_WARNING = 2;

/** Failed jobs in the window, with their top cause. */
export const failureRate: FindingRule = ({ outcomes, failures, window, projects }) => {
  const sent = outcomes.reduce((n, o) => n + o.sent, 0);
  const failed = outcomes.reduce((n, o) => n + o.failed, 0);
  if (failed === 0) return [];
  const rate = Math.round((failed / (sent + failed)) * 10_000) / 100;
  const severity: Severity = rate >= FAILURE_RATE_CRITICAL ? 'critical' : rate >= FAILURE_RATE_WARNING ? 'warning' : 'info';
  const top = failures[0];
  return [
    {
      severity,
      code: 'failure_rate',
      message:
        `${failed} job(s) failed in the last ${window} (${rate} % of ${sent + failed} finished)` +
        (top ? `; top cause on ${top.channel}: "${top.reason}" (${top.count}×, e.g. job ${top.sample_job_id}).` : '.'),
      action: 'List them with GET /v1/admin/jobs?status=failed (MCP list_jobs), fix the cause (caller data, credentials or sender), then POST /v1/admin/jobs/{id}/retry (MCP retry_job).',
      evidence: { sent, failed, failure_rate_percent: rate, top_cause: top ?? null },
      harm: {
        held: 0,
        lost: failed,
        projects: projects.filter((p) => p.failed > 0).length,
        channels: [...new Set(outcomes.filter((o) => o.failed > 0).map((o) => o.channel))],
        seconds: null,
      },
    },
  ];
};
