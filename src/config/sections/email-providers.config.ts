import { defineSection } from '../define-section.js';
import { envBool, envEnum, envInt, envString, envUrl } from '../env-helpers.js';

/** Cloudflare account ids are 32 hex digits (per-project settings check the same). */
export const CLOUDFLARE_ACCOUNT_ID = /^[0-9a-f]{32}$/i;

const httpUrl = (example: string) =>
  envUrl({ protocols: ['http', 'https'], hint: `must be an http(s) base URL such as ${example}` });

/**
 * Credentials and settings of the email providers (src/connectors/email/). notifyd's variable
 * names where it has them (SMTP_*, RESEND_API_KEY); each provider's base URL is configurable so
 * that tests and regional endpoints work. A provider's connector checks at boot that what it
 * needs is set, and only when EMAIL_PROVIDER or EMAIL_FALLBACK_PROVIDER names it.
 */
export const emailProvidersSection = defineSection(
  {
    SMTP_HOST: envString({ hint: 'must be the SMTP relay host name, e.g. smtp.example.com' }),
    /** 587 (STARTTLS) by default; 465 with SMTP_SECURITY=tls. */
    SMTP_PORT: envInt({ default: 587, min: 1, max: 65_535 }),
    SMTP_USERNAME: envString(),
    SMTP_PASSWORD: envString(),
    /** starttls (upgrade required), tls (implicit TLS, port 465) or none (plain: local relays only). */
    SMTP_SECURITY: envEnum(['starttls', 'tls', 'none'], 'starttls'),
    /** Accept a relay certificate that does not verify (self-signed internal relays). */
    SMTP_TLS_INSECURE: envBool(false),
    /** Connection, greeting and socket timeout per message (notifyd: 20 s). */
    SMTP_TIMEOUT_MS: envInt({ default: 20_000, min: 100, max: 600_000 }),
    /** Optional DKIM signing by notifyd (most relays sign for you): all three or none. */
    DKIM_DOMAIN: envString({
      pattern: /^[A-Za-z0-9.-]+\.[A-Za-z]{2,}$/,
      hint: 'must be the signing domain, e.g. example.com',
    }),
    DKIM_SELECTOR: envString({
      pattern: /^[A-Za-z0-9._-]+$/,
      hint: 'must be the DNS selector, e.g. notifyd (for notifyd._domainkey.example.com)',
    }),
    /** PEM private key; `\n` escapes are accepted so that it fits on one line of a .env file. */
    DKIM_PRIVATE_KEY: envString(),

    RESEND_API_KEY: envString(),
    RESEND_BASE_URL: httpUrl('https://api.resend.com'),

    POSTMARK_SERVER_TOKEN: envString(),
    POSTMARK_BASE_URL: httpUrl('https://api.postmarkapp.com'),
    /** Postmark message stream: outbound (transactional) by default; marketing email uses POSTMARK_BROADCAST_STREAM when set. */
    POSTMARK_MESSAGE_STREAM: envString({
      pattern: /^[A-Za-z0-9_-]+$/,
      hint: 'must be a Postmark stream id such as outbound',
    }),
    POSTMARK_BROADCAST_STREAM: envString({
      pattern: /^[A-Za-z0-9_-]+$/,
      hint: 'must be a Postmark stream id such as broadcast',
    }),

    SES_REGION: envString({ pattern: /^[a-z]{2}(-[a-z]+)+-\d$/, hint: 'must be an AWS region such as eu-west-1' }),
    AWS_REGION: envString({ pattern: /^[a-z]{2}(-[a-z]+)+-\d$/, hint: 'must be an AWS region such as eu-west-1' }),
    AWS_ACCESS_KEY_ID: envString(),
    AWS_SECRET_ACCESS_KEY: envString(),
    AWS_SESSION_TOKEN: envString(),
    SES_BASE_URL: httpUrl('https://email.eu-west-1.amazonaws.com'),
    SES_CONFIGURATION_SET: envString(),

    SENDGRID_API_KEY: envString(),
    SENDGRID_BASE_URL: httpUrl('https://api.sendgrid.com'),

    /** AgentMail sends from an inbox: the message's sender address (EMAIL_FROM or the project's from_email) is the inbox id. */
    AGENTMAIL_API_KEY: envString(),
    AGENTMAIL_BASE_URL: httpUrl('https://api.agentmail.to'),

    /** Cloudflare Email Service (Email Sending): the account that owns the onboarded sender domain. */
    CLOUDFLARE_ACCOUNT_ID: envString({
      pattern: CLOUDFLARE_ACCOUNT_ID,
      hint: 'must be the 32-hex-digit account id shown in the Cloudflare dashboard',
    }),
    /** An API token with the Email Sending permission on that account. */
    CLOUDFLARE_EMAIL_API_TOKEN: envString(),
    CLOUDFLARE_BASE_URL: httpUrl('https://api.cloudflare.com/client/v4'),
  },
  (env) => {
    const region = env.SES_REGION ?? env.AWS_REGION;
    return {
      smtp: {
        host: env.SMTP_HOST,
        port: env.SMTP_PORT,
        username: env.SMTP_USERNAME,
        password: env.SMTP_PASSWORD,
        security: env.SMTP_SECURITY as 'starttls' | 'tls' | 'none',
        tlsInsecure: env.SMTP_TLS_INSECURE,
        timeoutMs: env.SMTP_TIMEOUT_MS,
        dkim:
          env.DKIM_DOMAIN || env.DKIM_SELECTOR || env.DKIM_PRIVATE_KEY
            ? {
                domain: env.DKIM_DOMAIN,
                selector: env.DKIM_SELECTOR,
                privateKey: env.DKIM_PRIVATE_KEY?.replace(/\\n/g, '\n'),
              }
            : undefined,
      },
      resend: { apiKey: env.RESEND_API_KEY, baseUrl: trim(env.RESEND_BASE_URL) ?? 'https://api.resend.com' },
      postmark: {
        serverToken: env.POSTMARK_SERVER_TOKEN,
        baseUrl: trim(env.POSTMARK_BASE_URL) ?? 'https://api.postmarkapp.com',
        messageStream: env.POSTMARK_MESSAGE_STREAM ?? 'outbound',
        broadcastStream: env.POSTMARK_BROADCAST_STREAM,
      },
      ses: {
        region,
        accessKeyId: env.AWS_ACCESS_KEY_ID,
        secretAccessKey: env.AWS_SECRET_ACCESS_KEY,
        sessionToken: env.AWS_SESSION_TOKEN,
        baseUrl: trim(env.SES_BASE_URL) ?? (region ? `https://email.${region}.amazonaws.com` : undefined),
        configurationSet: env.SES_CONFIGURATION_SET,
      },
      sendgrid: { apiKey: env.SENDGRID_API_KEY, baseUrl: trim(env.SENDGRID_BASE_URL) ?? 'https://api.sendgrid.com' },
      agentmail: { apiKey: env.AGENTMAIL_API_KEY, baseUrl: trim(env.AGENTMAIL_BASE_URL) ?? 'https://api.agentmail.to' },
      cloudflare: {
        accountId: env.CLOUDFLARE_ACCOUNT_ID,
        apiToken: env.CLOUDFLARE_EMAIL_API_TOKEN,
        baseUrl: trim(env.CLOUDFLARE_BASE_URL) ?? 'https://api.cloudflare.com/client/v4',
      },
    };
  },
);

const trim = (url: string | undefined) => url?.replace(/\/+$/, '');

export type EmailProvidersConfig = ReturnType<typeof emailProvidersSection.build>;
export type SmtpSettings = EmailProvidersConfig['smtp'];
export type ResendSettings = EmailProvidersConfig['resend'];
export type PostmarkSettings = EmailProvidersConfig['postmark'];
export type SesSettings = EmailProvidersConfig['ses'];
export type SendgridSettings = EmailProvidersConfig['sendgrid'];
export type AgentmailSettings = EmailProvidersConfig['agentmail'];
export type CloudflareEmailSettings = EmailProvidersConfig['cloudflare'];
