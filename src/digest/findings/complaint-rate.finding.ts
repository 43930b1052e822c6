import type { FindingRule } from '../digest.types.js';

/** Gmail and Yahoo's bulk-sender ceiling on spam complaints (complained / delivered). */
export const COMPLAINT_RATE_CEILING = 0.3;
/** Their recommended operating limit: above it the ceiling is near. */
export const COMPLAINT_RATE_NEAR = 0.1;

/** Spam complaint rate near or over the 0.3 % bulk-sender ceiling. */
export const complaintRate: FindingRule = ({ deliverability: d, window }) => {
  const rate = d.complaint_rate_percent;
  if (rate === null || rate < COMPLAINT_RATE_NEAR) return [];
  const over = rate >= COMPLAINT_RATE_CEILING;
  return [
    {
      severity: over ? 'critical' : 'warning',
      code: 'complaint_rate',
      message: `Spam complaint rate is ${rate} % over the last ${window} (${d.complained} of ${d.delivered} delivered); ${over ? 'over' : 'near'} the 0.3 % ceiling Gmail and Yahoo enforce on bulk senders.`,
      action:
        'Slow or stop marketing sends (POST /v1/admin/lanes/{lane}/pause), make unsubscribing one click (set PUBLIC_URL so List-Unsubscribe works), send only to subscribers who opted in, and review frequency and content.',
      evidence: {
        complaint_rate_percent: rate,
        complained: d.complained,
        delivered: d.delivered,
        ceiling_percent: COMPLAINT_RATE_CEILING,
      },
    },
  ];
};
