import type { FindingRule } from '../digest.types.js';

/** Bounce rate (bounced / (delivered + bounced)) at which providers throttle or suspend a sender. */
export const BOUNCE_RATE_CRITICAL = 5;
/** Bounce rate worth watching: list quality is slipping. */
export const BOUNCE_RATE_WARNING = 2;

export const bounceRate: FindingRule = ({ deliverability: d, window }) => {
  const rate = d.bounce_rate_percent;
  if (rate === null || rate < BOUNCE_RATE_WARNING) return [];
  const critical = rate >= BOUNCE_RATE_CRITICAL;
  return [
    {
      severity: critical ? 'critical' : 'warning',
      code: critical ? 'bounce_rate_critical' : 'bounce_rate_high',
      message: `Email bounce rate is ${rate} % over the last ${window} (${d.bounced} bounced, ${d.delivered} delivered)${critical ? ': providers throttle or suspend senders above 5 %' : ''}.`,
      action: critical
        ? 'Stop bulk sends now (POST /v1/admin/lanes/{lane}/pause for the email lane), clean the list: bounced addresses are suppressed (GET /v1/admin/suppressions); check where the addresses come from before resuming.'
        : 'Watch list quality: check the newest bounced addresses (GET /v1/admin/suppressions) and the sign-up source that produced them.',
      evidence: {
        bounce_rate_percent: rate,
        bounced: d.bounced,
        delivered: d.delivered,
        threshold_percent: critical ? BOUNCE_RATE_CRITICAL : BOUNCE_RATE_WARNING,
      },
    },
  ];
};
