import { defineSection } from '../define-section.js';
import { envString, envUrl } from '../env-helpers.js';

/**
 * WhatsApp providers (src/connectors/whatsapp/): Twilio (shares TWILIO_ACCOUNT_SID and
 * TWILIO_AUTH_TOKEN with SMS) and Meta's WhatsApp Cloud API (Graph).
 */
export const whatsappProvidersSection = defineSection(
  {
    /** Twilio: the WhatsApp-enabled sender, E.164 (the `whatsapp:` prefix is added when missing). */
    WHATSAPP_FROM: envString({
      pattern: /^(whatsapp:)?\+[1-9]\d{6,14}$/,
      hint: 'must be an E.164 number such as +14155238886',
    }),
    /** Meta Cloud API: a system-user access token with whatsapp_business_messaging. */
    WHATSAPP_ACCESS_TOKEN: envString({
      min: 16,
      hint: 'a Meta access token with the whatsapp_business_messaging permission',
    }),
    /** Meta Cloud API: the business phone number id (digits), not the phone number itself. */
    WHATSAPP_PHONE_NUMBER_ID: envString({
      pattern: /^\d{5,20}$/,
      hint: 'must be the phone number id from WhatsApp Manager (digits only)',
    }),
    /** Graph API base including its version (default https://graph.facebook.com/v23.0). */
    WHATSAPP_API_BASE: envUrl({
      protocols: ['http', 'https'],
      hint: 'must be an http(s) URL such as https://graph.facebook.com/v23.0',
    }),
  },
  (env) => ({
    twilioFrom: env.WHATSAPP_FROM
      ? env.WHATSAPP_FROM.startsWith('whatsapp:')
        ? env.WHATSAPP_FROM
        : `whatsapp:${env.WHATSAPP_FROM}`
      : undefined,
    meta: {
      accessToken: env.WHATSAPP_ACCESS_TOKEN,
      phoneNumberId: env.WHATSAPP_PHONE_NUMBER_ID,
      apiBase: (env.WHATSAPP_API_BASE ?? 'https://graph.facebook.com/v23.0').replace(/\/+$/, ''),
    },
  }),
);

export type WhatsAppProvidersConfig = ReturnType<typeof whatsappProvidersSection.build>;
