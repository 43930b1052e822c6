import { defineSection } from '../define-section.js';
import { envBool, envNumber } from '../env-helpers.js';
import type { Channel } from '../../domain/channels.js';

/** A lane rate: tokens per second, 0 = unpaced. Fractions allowed (Discord's 0.5/s). */
const rate = (fallback: number) => envNumber({ default: fallback, min: 0, max: 100_000 });

export const pacingSection = defineSection(
  {
    /**
     * Provider calls (or messages, where the connector meters messages) per second per lane,
     * shared by every replica. 0 turns pacing off for the channel. notifyd's defaults.
     */
    EMAIL_RATE_PER_SEC: rate(8),
    SMS_RATE_PER_SEC: rate(10),
    WHATSAPP_RATE_PER_SEC: rate(10),
    PUSH_RATE_PER_SEC: rate(50),
    TELEGRAM_RATE_PER_SEC: rate(20),
    SLACK_RATE_PER_SEC: rate(1),
    DISCORD_RATE_PER_SEC: rate(0.5),
    /**
     * Burst, as seconds of the lane's rate: an idle lane may spend rate × this at once (never
     * less than one call). 1 matches notifyd (burst = rate).
     */
    PACING_BURST_SECS: envNumber({ default: 1, min: 0, max: 60 }),
    /** Lane pause after a 429 that carried no Retry-After. */
    RATE_LIMIT_PAUSE_SECS: envNumber({ default: 2, min: 0.5, max: 3_600 }),
    /** Lane pause after a daily/monthly quota error that did not say when the quota resets. */
    QUOTA_PAUSE_SECS: envNumber({ default: 3_600, min: 1, max: 7 * 86_400 }),
    /** Follow the provider's remaining-quota headers (slow down before a 429). */
    PACING_ADAPTIVE: envBool(true),
    /**
     * Fair share between projects on a paced lane: each project's due jobs are spaced at the
     * lane's rate when enqueued, so the claim order interleaves projects (src/pacing/README.md).
     */
    PACING_FAIR_SHARE: envBool(true),
  },
  (env) => ({
    /** Configured rate per channel; in_app is never paced. */
    rates: {
      email: env.EMAIL_RATE_PER_SEC,
      sms: env.SMS_RATE_PER_SEC,
      whatsapp: env.WHATSAPP_RATE_PER_SEC,
      push: env.PUSH_RATE_PER_SEC,
      in_app: 0,
      telegram: env.TELEGRAM_RATE_PER_SEC,
      slack: env.SLACK_RATE_PER_SEC,
      discord: env.DISCORD_RATE_PER_SEC,
    } satisfies Record<Channel, number>,
    burstSecs: env.PACING_BURST_SECS,
    rateLimitPauseMs: Math.round(env.RATE_LIMIT_PAUSE_SECS * 1000),
    quotaPauseMs: Math.round(env.QUOTA_PAUSE_SECS * 1000),
    adaptive: env.PACING_ADAPTIVE,
    fairShare: env.PACING_FAIR_SHARE,
  }),
);

export type PacingConfig = ReturnType<typeof pacingSection.build>;
