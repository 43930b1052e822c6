import type { FindingRule } from '../digest.types.js';

/** Retrying jobs from which a backlog is a storm: more retries than fresh work, and at least this many. */
export const RETRY_STORM_MIN = 100;

/**
 * Many jobs retrying at once: a provider failing transiently for everyone, or a bad deploy of
 * credentials. Each retry is another provider call and another row version.
 */
export const retryStorm: FindingRule = ({ queue, retries_waiting }) => {
  if (queue.retry < RETRY_STORM_MIN || queue.retry <= queue.pending) return [];
  const byChannel = new Map<string, number>();
  for (const r of retries_waiting) byChannel.set(r.channel, (byChannel.get(r.channel) ?? 0) + r.count);
  const worst = [...byChannel.entries()].sort((a, b) => b[1] - a[1])[0];
  return [
    {
      severity: 'warning',
      code: 'retry_storm',
      message: `${queue.retry} jobs are waiting to retry (more than the ${queue.pending} pending)${worst ? `, mostly ${worst[0]} (${worst[1]})` : ''}: a provider is failing transiently or credentials are wrong.`,
      action: `Look at the failure causes below and GET /v1/admin/jobs?status=retry${worst ? `&channel=${worst[0]}` : ''}; if the provider is down, pause its lane (POST /v1/admin/lanes/{lane}/pause) until it recovers so retries stop piling up.`,
      evidence: { retry: queue.retry, pending: queue.pending, by_channel: Object.fromEntries(byChannel) },
    },
  ];
};
