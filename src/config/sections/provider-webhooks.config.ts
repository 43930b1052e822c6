import { sendgridPublicKey } from './sendgrid-public-key.js';
import { defineSection } from '../define-section.js';
import { envInt, envList, envString, envUrl } from '../env-helpers.js';
import { succeeds } from '../succeeds.js';

/** The SNS test base: loopback only, never in production (it would let forged SNS messages verify). */
function testEndpointBase(value: string | undefined, nodeEnv: unknown): string | undefined {
  if (!value) return undefined;
  const problem =
    String(nodeEnv ?? '')
      .trim()
      .toLowerCase() === 'production'
      ? 'is refused when NODE_ENV=production: it is for tests only. Remove it.'
      : !['127.0.0.1', '[::1]', 'localhost'].includes(new URL(value).hostname)
        ? 'must be a loopback URL (127.0.0.1, [::1] or localhost): it is for tests only.'
        : null;
  if (problem) throw new Error(`Invalid configuration:\n  - SNS_TEST_ENDPOINT_BASE ${problem}`);
  return value.endsWith('/') ? value : `${value}/`;
}

/**
 * Provider webhooks in (src/governance/provider-webhooks/): the secrets that authenticate them.
 * A provider whose secret is unset has its route answer 503 (fail closed), never accept unsigned.
 */
export const providerWebhooksSection = defineSection(
  {
    /** Resend's signing secret (Svix), `whsec_…` from the Resend dashboard's webhook page. */
    RESEND_WEBHOOK_SECRET: envString({
      pattern: /^whsec_[A-Za-z0-9+/=_-]{16,}$/,
      hint: 'must be the webhook signing secret from the Resend dashboard, e.g. whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    }),
    /** Postmark: Basic credentials you put in the webhook URL (https://USER:PASSWORD@host/webhooks/postmark). */
    POSTMARK_WEBHOOK_USERNAME: envString({
      pattern: /^[^:\s]{1,128}$/,
      hint: 'must be a user name without ":" or spaces',
    }),
    POSTMARK_WEBHOOK_PASSWORD: envString({
      min: 16,
      hint: 'use a random value, e.g. the output of `openssl rand -hex 16`',
    }),
    /** Meta (WhatsApp Cloud API): the app secret that signs webhooks (X-Hub-Signature-256). */
    WHATSAPP_APP_SECRET: envString({ min: 16, hint: 'the App Secret from the Meta app dashboard (Settings → Basic)' }),
    /** Meta: the token you type in the webhook setup; notifyd echoes the challenge when it matches. */
    WHATSAPP_VERIFY_TOKEN: envString({
      min: 8,
      hint: 'choose a random value, e.g. the output of `openssl rand -hex 16`',
    }),
    /**
     * SendGrid: the verification key of the signed Event Webhook (Settings → Mail Settings →
     * Event Webhook → Signature Verification), base64 of an ECDSA P-256 public key.
     */
    SENDGRID_WEBHOOK_PUBLIC_KEY: envString({
      check: (v) => succeeds(() => sendgridPublicKey(v)),
      hint: 'must be the base64 ECDSA P-256 public key SendGrid shows for the signed Event Webhook (it starts with MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE)',
    }),
    /** Amazon SES via SNS: the topic ARNs whose messages are accepted (comma list); unset turns /webhooks/ses off. */
    SES_SNS_TOPIC_ARNS: envList(),
    /**
     * Tests only: a loopback base URL (e.g. http://127.0.0.1:4567/) from which SNS certificates and
     * SubscribeURLs may also be fetched. Refused with NODE_ENV=production.
     */
    SNS_TEST_ENDPOINT_BASE: envUrl({ protocols: ['http', 'https'] }),
    /** Read here too (defined by the outbound section): production refuses SNS_TEST_ENDPOINT_BASE. */
    NODE_ENV: envString(),
    /** Largest clock difference accepted on signed timestamps (Svix, SendGrid), seconds. */
    PROVIDER_WEBHOOK_TOLERANCE_SECS: envInt({ default: 300, min: 30, max: 3_600 }),
  },
  (env) => {
    if (!env.POSTMARK_WEBHOOK_USERNAME !== !env.POSTMARK_WEBHOOK_PASSWORD) {
      throw new Error(
        'Invalid configuration:\n  - POSTMARK_WEBHOOK_USERNAME and POSTMARK_WEBHOOK_PASSWORD go together: set both (or neither, which turns /webhooks/postmark off).',
      );
    }
    return {
      resendSecret: env.RESEND_WEBHOOK_SECRET,
      postmark: { username: env.POSTMARK_WEBHOOK_USERNAME, password: env.POSTMARK_WEBHOOK_PASSWORD },
      whatsapp: { appSecret: env.WHATSAPP_APP_SECRET, verifyToken: env.WHATSAPP_VERIFY_TOKEN },
      sendgridPublicKey: env.SENDGRID_WEBHOOK_PUBLIC_KEY
        ? sendgridPublicKey(env.SENDGRID_WEBHOOK_PUBLIC_KEY)
        : undefined,
      ses: {
        topicArns: env.SES_SNS_TOPIC_ARNS ?? [],
        testEndpointBase: testEndpointBase(env.SNS_TEST_ENDPOINT_BASE, env.NODE_ENV),
      },
      toleranceSecs: env.PROVIDER_WEBHOOK_TOLERANCE_SECS,
    };
  },
);

export type ProviderWebhooksConfig = ReturnType<typeof providerWebhooksSection.build>;
