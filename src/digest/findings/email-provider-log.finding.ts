import type { FindingRule } from '../digest.types.js';

/** The `log` connector accepts every email and delivers none: fine on a laptop, silent loss in production. */
export const emailProviderLog: FindingRule = ({ instance, outcomes, projects, window }) => {
  if (instance.providers.email !== 'log') return [];
  // What it swallowed in the window: every email it "sent".
  const swallowed = outcomes
    .filter((o) => o.channel === 'email' && o.provider === 'log')
    .reduce((n, o) => n + o.sent, 0);
  return [
    {
      severity: 'critical',
      code: 'email_provider_log',
      message: `EMAIL_PROVIDER is "log": emails are written to the log and never delivered (${swallowed} in the last ${window}).`,
      action:
        'Switch EMAIL_PROVIDER to a real provider (resend, postmark, ses, sendgrid, agentmail, cloudflare or smtp) before serving customers.',
      evidence: { email_provider: 'log', swallowed_in_window: swallowed },
      harm: {
        held: 0,
        lost: swallowed,
        projects: projects.filter((p) => p.channels.includes('email') && p.sent > 0).length,
        channels: ['email'],
        seconds: null,
      },
    },
  ];
};
