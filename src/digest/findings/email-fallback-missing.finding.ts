import type { FindingRule } from '../digest.types.js';

/** A real email provider without a fallback: its outage stops email until it returns. */
export const emailFallbackMissing: FindingRule = ({ instance }) =>
  instance.providers.email && instance.providers.email !== 'log' && !instance.email_fallback_provider
    ? [
        {
          severity: 'info',
          code: 'email_fallback_missing',
          message: `Email goes through ${instance.providers.email} alone: an outage there holds every email until it recovers.`,
          action:
            'Set EMAIL_FALLBACK_PROVIDER (smtp, resend, postmark, ses, sendgrid, agentmail or cloudflare) with a verified sender, so the failover breaker can route around an outage.',
          evidence: { email_provider: instance.providers.email, email_fallback_provider: null },
        },
      ]
    : [];
