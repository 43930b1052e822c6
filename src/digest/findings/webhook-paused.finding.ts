import type { FindingRule } from '../digest.types.js';

/**
 * An outbound webhook endpoint is paused by its circuit breaker (5 failed attempts in a row):
 * nothing is lost, but its events are late, and without this nobody on call would know why.
 */
export const webhookPaused: FindingRule = ({ webhooks_paused }) =>
  webhooks_paused.map((w) => ({
    severity: 'warning' as const,
    code: 'webhook_endpoint_paused',
    message: `Webhook endpoint ${w.id} of project ${w.project_id} (${w.host}) is paused${w.last_failure_at ? ` since ${w.last_failure_at} (its last failed attempt)` : ''} until ${w.paused_until}, after ${w.consecutive_failures} failed attempts in a row. Its events wait and are not lost: they go out once a probe succeeds.`,
    action: `Check the receiver at ${w.host}: its last error is in GET /v1/admin/webhooks/${w.id}/deliveries. It resumes by itself after a successful probe (one delivery goes when the pause ends): nothing to re-enable. Down for about a day, it is disabled and what waits is cancelled.`,
    evidence: { ...w },
  }));
