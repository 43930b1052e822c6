import type { FindingRule } from '../digest.types.js';
import { COMPLAINT_RATE } from './complaint-rate.finding.js';

/** Some recipients marked email as spam (below the rate that complaint-rate reports). */
export const complaints: FindingRule = ({ deliverability: d, window }) => {
  if (!d.complained) return [];
  if (d.complaint_rate_percent !== null && d.complaint_rate_percent >= COMPLAINT_RATE.warning) return [];
  return [
    {
      severity: 'warning',
      code: 'complaints',
      message: `${d.complained} recipient(s) marked email as spam in the last ${window}; they are suppressed and receive nothing more.`,
      action:
        'Review the content and frequency of what they received (GET /v1/admin/suppressions lists them); make sure every marketing send is opted in.',
      evidence: { complained: d.complained, delivered: d.delivered, complaint_rate_percent: d.complaint_rate_percent },
    },
  ];
};
