import { type Channel } from '../../domain/channels.js';
import { defineSection } from '../define-section.js';
import { envBool, envInt, envString } from '../env-helpers.js';

const PROVIDER_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,39}$/;
const providerVar = () =>
  envString({ pattern: PROVIDER_NAME, hint: 'must be a provider name such as log, smtp, resend or twilio' }).transform(
    (v) => v?.toLowerCase(),
  );

export const connectorsSection = defineSection(
  {
    /** Provider per channel. Unset = the channel is not configured (422 channel_not_configured). */
    EMAIL_PROVIDER: providerVar(),
    SMS_PROVIDER: providerVar(),
    WHATSAPP_PROVIDER: providerVar(),
    PUSH_PROVIDER: providerVar(),
    /** The in-app inbox needs no third party; it is always configured (default `inbox`). */
    IN_APP_PROVIDER: providerVar(),
    TELEGRAM_PROVIDER: providerVar(),
    SLACK_PROVIDER: providerVar(),
    DISCORD_PROVIDER: providerVar(),
    EMAIL_FROM: envString({
      pattern: /^[^\s@]+@[^\s@]+$/,
      hint: 'must be an email address such as notifications@example.com',
    }),
    EMAIL_FROM_NAME: envString(),
    /** The log connector's batch size: 100 mimics Resend's batch API, 1 mimics SMTP/SMS. */
    LOG_CONNECTOR_BATCH_MAX: envInt({ default: 100, min: 1, max: 10_000 }),
    /** The log provider prints what it would have sent (masked recipient, subject, first 200 characters of the body). */
    LOG_PROVIDER_PRINT: envBool(true),
  },
  (env) => ({
    providers: {
      email: env.EMAIL_PROVIDER,
      sms: env.SMS_PROVIDER,
      whatsapp: env.WHATSAPP_PROVIDER,
      push: env.PUSH_PROVIDER,
      in_app: env.IN_APP_PROVIDER ?? 'inbox',
      telegram: env.TELEGRAM_PROVIDER,
      slack: env.SLACK_PROVIDER,
      discord: env.DISCORD_PROVIDER,
    } satisfies Record<Channel, string | undefined>,
    emailFrom: env.EMAIL_FROM ?? 'notifications@example.com',
    emailFromName: env.EMAIL_FROM_NAME,
    logBatchMax: env.LOG_CONNECTOR_BATCH_MAX,
    logPrint: env.LOG_PROVIDER_PRINT,
  }),
);

export type ConnectorsConfig = ReturnType<typeof connectorsSection.build>;
