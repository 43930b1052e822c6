import { deliverabilityRateRule } from './rate-rule.js';

/**
 * Spam complaint rate (complained / delivered), in percent: `critical` is Gmail and Yahoo's
 * bulk-sender ceiling, `warning` their recommended operating limit (above it the ceiling is near).
 */
export const COMPLAINT_RATE = { warning: 0.1, critical: 0.3 };

/** Spam complaint rate near or over the 0.3 % bulk-sender ceiling. */
export const complaintRate = deliverabilityRateRule(
  (d) => d.complaint_rate_percent,
  COMPLAINT_RATE,
  (rate, over, { deliverability: d, window }) => ({
    code: 'complaint_rate',
    message: `Spam complaint rate is ${rate} % over the last ${window} (${d.complained} of ${d.delivered} delivered); ${over ? 'over' : 'near'} the 0.3 % ceiling Gmail and Yahoo enforce on bulk senders.`,
    action:
      'Slow or stop marketing sends (POST /v1/admin/lanes/{lane}/pause), make unsubscribing one click (set PUBLIC_URL so List-Unsubscribe works), send only to subscribers who opted in, and review frequency and content.',
    evidence: {
      complaint_rate_percent: rate,
      complained: d.complained,
      delivered: d.delivered,
      ceiling_percent: COMPLAINT_RATE.critical,
    },
  }),
);
