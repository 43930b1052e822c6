import type { FindingRule } from '../digest.types.js';

/** No email provider: every email send is refused with 422 channel_not_configured. */
export const emailProviderMissing: FindingRule = ({ instance }) =>
  instance.providers.email
    ? []
    : [
        {
          severity: 'critical',
          code: 'email_provider_missing',
          message: 'No email provider is configured: every email send is refused (422 channel_not_configured).',
          action:
            'Set EMAIL_PROVIDER (resend, postmark, ses, sendgrid, agentmail, cloudflare or smtp) with its credentials and EMAIL_FROM, then restart.',
          evidence: { email_provider: null },
        },
      ];
