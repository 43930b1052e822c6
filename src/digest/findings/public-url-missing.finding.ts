import type { FindingRule } from '../digest.types.js';

/**
 * PUBLIC_URL unset: bulk email goes out without a working one-click List-Unsubscribe (RFC 8058,
 * required by Gmail and Yahoo for bulk senders), open/click tracking and provider status
 * callbacks (Twilio) have no address to reach.
 */
export const publicUrlMissing: FindingRule = ({ instance }) => {
  if (instance.public_url) return [];
  const consequences: string[] = [];
  if (instance.providers.email)
    consequences.push(
      'bulk email carries no one-click List-Unsubscribe (Gmail and Yahoo require it) and opens/clicks are not tracked',
    );
  if (instance.providers.sms === 'twilio') consequences.push('Twilio cannot report SMS delivery status');
  if (!consequences.length) return [];
  return [
    {
      severity: 'warning',
      code: 'public_url_missing',
      message: `PUBLIC_URL is not set: ${consequences.join('; ')}.`,
      action:
        'Set PUBLIC_URL to the https address this instance is reachable at (e.g. https://notify.example.com) and restart.',
      evidence: { public_url: null, email_provider: instance.providers.email, sms_provider: instance.providers.sms },
    },
  ];
};
