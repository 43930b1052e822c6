import type { FindingRule } from '../digest.types.js';

/** An outbound webhook endpoint is switched off (by notifyd after failures or a 410, or by hand). */
export const webhookDisabled: FindingRule = ({ webhooks_disabled }) =>
  webhooks_disabled.map((w) => ({
    severity: 'warning' as const,
    code: 'webhook_endpoint_disabled',
    message: `Webhook endpoint ${w.id} of project ${w.project_id} (${w.host}) is disabled since ${w.disabled_at}: ${w.reason}. Its events are not delivered.`,
    action: `Fix the receiver, then PATCH /v1/admin/webhooks/${w.id} with {"enabled": true}; or DELETE /v1/admin/webhooks/${w.id} if it is gone for good.`,
    evidence: { ...w },
  }));
