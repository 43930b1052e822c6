import type { FindingRule } from '../digest.types.js';

/** The `log` connector accepts every email and delivers none: fine on a laptop, silent loss in production. */
export const emailProviderLog: FindingRule = ({ instance }) =>
  instance.providers.email === 'log'
    ? [
        {
          severity: 'critical',
          code: 'email_provider_log',
          message: 'EMAIL_PROVIDER is "log": emails are written to the log and never delivered.',
          action: 'Switch EMAIL_PROVIDER to a real provider (resend, postmark, ses, sendgrid or smtp) before serving customers.',
          evidence: { email_provider: 'log' },
        },
      ]
    : [];
