import { defineSection } from '../define-section.js';
import { envNumber } from '../env-helpers.js';

export const pacingSection = defineSection(
  {
    /** Lane pause after a 429 that carried no Retry-After. */
    RATE_LIMIT_PAUSE_SECS: envNumber({ default: 2, min: 0.5, max: 3_600 }),
  },
  (env) => ({
    rateLimitPauseMs: Math.round(env.RATE_LIMIT_PAUSE_SECS * 1000),
  }),
);

export type PacingConfig = ReturnType<typeof pacingSection.build>;
