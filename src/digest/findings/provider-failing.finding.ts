import type { FindingRule, RetryCause } from '../digest.types.js';
import { describeHeld, harmSeverity } from './harm.js';

/**
 * A provider failing now: jobs waiting to retry after a transient error (5xx, timeout,
 * network), per channel × provider, while they are retrying — not only once they have used
 * their attempts and failed. Its severity follows the harm: how many messages it holds, in how
 * many projects, for how long.
 */
export const providerFailing: FindingRule = ({ retry_causes }) => {
  const byLane = new Map<string, RetryCause[]>();
  for (const c of retry_causes) byLane.set(`${c.channel}:${c.provider}`, [...(byLane.get(`${c.channel}:${c.provider}`) ?? []), c]);
  return [...byLane.entries()].map(([lane, causes]) => {
    const { channel, provider } = causes[0];
    const held = causes.reduce((n, c) => n + c.count, 0);
    const projects = new Set(causes.flatMap((c) => c.project_ids));
    const harm = {
      held,
      lost: 0,
      projects: Math.max(projects.size, ...causes.map((c) => c.projects)),
      channels: [channel],
      seconds: causes.reduce<number | null>((m, c) => (c.oldest_late_seconds === null ? m : Math.max(m ?? 0, c.oldest_late_seconds)), null),
    };
    const top = causes.slice(0, 3).map((c) => `"${c.reason}" (${c.count}×)`).join(', ');
    const next = causes.map((c) => c.next_retry_at).filter((t): t is string => t !== null).sort()[0] ?? null;
    const CHANNEL = channel.toUpperCase();
    return {
      severity: harmSeverity(harm),
      code: 'provider_failing',
      message:
        `${channel} through ${provider} is failing now: ${held} job(s) wait to retry after ${top}; ${describeHeld(harm)}` +
        `${next ? `, next retry at ${next}` : ''}. Nothing is lost yet: a job fails for good once it has used WORKER_MAX_ATTEMPTS attempts.`,
      action:
        `Look at one (GET /v1/admin/jobs/${causes[0].sample_job_id}; all: GET /v1/admin/jobs?status=retry&channel=${channel}, MCP list_jobs) and at ${provider}'s status page. ` +
        `If ${provider} is down: set ${CHANNEL}_FALLBACK_PROVIDER so the failover breaker routes around it, or pause the lane (POST /v1/admin/lanes/${lane}/pause) so retries stop using attempts until it is back. ` +
        'If the error names credentials or a setting, fix it: the next retry picks it up.',
      evidence: { channel, provider, retrying: held, projects: harm.projects, causes: causes.slice(0, 5), next_retry_at: next },
      harm,
    };
  });
};
