import { deliverabilityRateRule } from './rate-rule.js';

/**
 * Bounce rate (bounced / (delivered + bounced)), in percent: worth watching from `warning` (list
 * quality is slipping); from `critical` on, providers throttle or suspend the sender.
 */
export const BOUNCE_RATE = { warning: 2, critical: 5 };

export const bounceRate = deliverabilityRateRule(
  (d) => d.bounce_rate_percent,
  BOUNCE_RATE,
  (rate, critical, { deliverability: d, window }) => ({
    code: critical ? 'bounce_rate_critical' : 'bounce_rate_high',
    message: `Email bounce rate is ${rate} % over the last ${window} (${d.bounced} bounced, ${d.delivered} delivered)${critical ? ': providers throttle or suspend senders above 5 %' : ''}.`,
    action: critical
      ? 'Stop bulk sends now (POST /v1/admin/lanes/{lane}/pause for the email lane), clean the list: bounced addresses are suppressed (GET /v1/admin/suppressions); check where the addresses come from before resuming.'
      : 'Watch list quality: check the newest bounced addresses (GET /v1/admin/suppressions) and the sign-up source that produced them.',
    evidence: {
      bounce_rate_percent: rate,
      bounced: d.bounced,
      delivered: d.delivered,
      threshold_percent: critical ? BOUNCE_RATE.critical : BOUNCE_RATE.warning,
    },
  }),
);
