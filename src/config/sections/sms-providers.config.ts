import { defineSection } from '../define-section.js';
import { envString, envUrl } from '../env-helpers.js';

/** notifyd's SMS sender rule: E.164, or 1–11 ASCII letters, digits and spaces with at least one letter. */
const SENDER_HINT =
  'must be an E.164 number such as +15005550006 or an alphanumeric sender id of 1–11 letters, digits and spaces (Acme)';
const smsSender = () =>
  envString({ pattern: /^(\+[1-9]\d{6,14}|(?=[A-Za-z0-9 ]*[A-Za-z])[A-Za-z0-9 ]{1,11})$/, hint: SENDER_HINT });
const baseUrl = () =>
  envUrl({ protocols: ['http', 'https'], hint: 'must be an http(s) base URL; leave it unset for the provider itself' });
const trimSlash = (v: string | undefined, fallback: string) => (v ?? fallback).replace(/\/+$/, '');

/**
 * SMS providers (src/connectors/sms/) and the Twilio account that WhatsApp over Twilio shares.
 * Variable names are notifyd's. Base URLs are the operator's (tests point them at local fakes),
 * so they are not subject to the SSRF guard that covers user-supplied URLs.
 */
export const smsProvidersSection = defineSection(
  {
    /** Default SMS sender; a message may carry its own in `sms.from`. */
    SMS_FROM: smsSender(),
    /** Twilio account (SMS_PROVIDER=twilio, WHATSAPP_PROVIDER=twilio). The auth token also signs status callbacks. */
    TWILIO_ACCOUNT_SID: envString({
      pattern: /^AC[0-9a-fA-F]{32}$/,
      hint: 'must be a Twilio account SID: AC followed by 32 hex digits',
    }),
    TWILIO_AUTH_TOKEN: envString({ min: 16, hint: 'the Auth Token from the Twilio console' }),
    /** Where the Twilio SDK sends its REST calls (default https://api.twilio.com). */
    TWILIO_API_BASE: baseUrl(),
    /** Telnyx (SMS_PROVIDER=telnyx): a v2 API key, and a messaging profile (required for alphanumeric senders). */
    TELNYX_API_KEY: envString({ min: 8, hint: 'a Telnyx v2 API key (KEY…)' }),
    TELNYX_MESSAGING_PROFILE_ID: envString({
      pattern: /^[0-9a-fA-F-]{8,64}$/,
      hint: 'must be a Telnyx messaging profile id (a UUID)',
    }),
    /** Telnyx API base (default https://api.telnyx.com). */
    TELNYX_API_BASE: baseUrl(),
  },
  (env) => ({
    from: env.SMS_FROM,
    twilio: {
      accountSid: env.TWILIO_ACCOUNT_SID,
      authToken: env.TWILIO_AUTH_TOKEN,
      apiBase: trimSlash(env.TWILIO_API_BASE, 'https://api.twilio.com'),
    },
    telnyx: {
      apiKey: env.TELNYX_API_KEY,
      messagingProfileId: env.TELNYX_MESSAGING_PROFILE_ID,
      apiBase: trimSlash(env.TELNYX_API_BASE, 'https://api.telnyx.com'),
    },
  }),
);

export type SmsProvidersConfig = ReturnType<typeof smsProvidersSection.build>;
