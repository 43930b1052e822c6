import type { FindingRule } from '../digest.types.js';
import { describeHeld, harmSeverity } from './harm.js';

/**
 * A provider failing now: jobs waiting to retry after a transient error (5xx, timeout,
 * network), per channel × provider, while they are retrying — not only once they have used
 * their attempts and failed. Its severity follows the harm: how many messages it holds, in how
 * many projects, for how long.
 */
export const providerFailing: FindingRule = ({ retrying }) =>
  retrying.map((r) => {
    const harm = {
      held: r.count,
      lost: 0,
      projects: r.projects,
      channels: [r.channel],
      seconds: r.oldest_late_seconds,
    };
    const top = r.causes
      .slice(0, 3)
      .map((c) => `"${c.reason}"${r.causes.length > 1 ? ` (${c.count}×)` : ''}`)
      .join(', ');
    const CHANNEL = r.channel.toUpperCase();
    return {
      severity: harmSeverity(harm),
      code: 'provider_failing',
      message:
        `${r.channel} through ${r.provider} is failing now: ${r.count} job(s) wait to retry${top ? ` after ${top}` : ''}; ${describeHeld(harm)}` +
        `${r.next_retry_at ? `, next retry at ${r.next_retry_at}` : ''}. Nothing is lost yet: a job fails for good once it has used WORKER_MAX_ATTEMPTS attempts.`,
      action:
        `Look at one (GET /v1/admin/jobs/${r.sample_job_id}; all: GET /v1/admin/jobs?status=retry&channel=${r.channel}, MCP list_jobs) and at ${r.provider}'s status page. ` +
        `If ${r.provider} is down: set ${CHANNEL}_FALLBACK_PROVIDER so the failover breaker routes around it, or pause the lane (POST /v1/admin/lanes/${r.channel}:${r.provider}/pause) so retries stop using attempts until it is back. ` +
        'If the error names credentials or a setting, fix it: the next retry picks it up.',
      evidence: { ...r },
      harm,
    };
  });
