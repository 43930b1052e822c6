import { defineSection } from '../define-section.js';
import { envInt, envString } from '../env-helpers.js';
import { CHANNELS, type Channel } from '../../domain/channels.js';

const PROVIDER_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,39}$/;
const fallbackVar = () =>
  envString({ pattern: PROVIDER_NAME, hint: 'must be a provider name such as smtp, postmark or telnyx' }).transform(
    (v) => v?.toLowerCase(),
  );
const cooldownVar = () => envInt({ default: 60, min: 1, max: 86_400 });

/**
 * Failover per channel (notifyd's EMAIL_FALLBACK_PROVIDER, generalised): a transient or
 * rate-limited refusal by the primary sends the message through the fallback at once and rests
 * the primary for the cooldown; permanent refusals never fail over.
 */
export const failoverSection = defineSection(
  {
    EMAIL_FALLBACK_PROVIDER: fallbackVar(),
    SMS_FALLBACK_PROVIDER: fallbackVar(),
    WHATSAPP_FALLBACK_PROVIDER: fallbackVar(),
    PUSH_FALLBACK_PROVIDER: fallbackVar(),
    TELEGRAM_FALLBACK_PROVIDER: fallbackVar(),
    SLACK_FALLBACK_PROVIDER: fallbackVar(),
    DISCORD_FALLBACK_PROVIDER: fallbackVar(),
    /** How long a tripped breaker rests the primary (extended, never shortened, by further trips). */
    EMAIL_FAILOVER_COOLDOWN_SECS: cooldownVar(),
    SMS_FAILOVER_COOLDOWN_SECS: cooldownVar(),
    WHATSAPP_FAILOVER_COOLDOWN_SECS: cooldownVar(),
    PUSH_FAILOVER_COOLDOWN_SECS: cooldownVar(),
    TELEGRAM_FAILOVER_COOLDOWN_SECS: cooldownVar(),
    SLACK_FAILOVER_COOLDOWN_SECS: cooldownVar(),
    DISCORD_FAILOVER_COOLDOWN_SECS: cooldownVar(),
  },
  (env) => {
    const e = env as Record<string, unknown>;
    const name = (channel: Channel) => channel.toUpperCase();
    return {
      // in_app has no third party to fail over from.
      fallbacks: Object.fromEntries(
        CHANNELS.map((c) => [
          c,
          c === 'in_app' ? undefined : (e[`${name(c)}_FALLBACK_PROVIDER`] as string | undefined),
        ]),
      ) as Record<Channel, string | undefined>,
      cooldownMs: Object.fromEntries(
        CHANNELS.map((c) => [c, ((e[`${name(c)}_FAILOVER_COOLDOWN_SECS`] as number | undefined) ?? 60) * 1000]),
      ) as Record<Channel, number>,
    };
  },
);

export type FailoverConfig = ReturnType<typeof failoverSection.build>;
