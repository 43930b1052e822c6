import { defineSection } from '../define-section.js';
import { envBool, envEnum, envInt, envString } from '../env-helpers.js';

/**
 * Outbound requests to URLs that users supply (chat webhooks, push endpoints): the SSRF guard's
 * policy (src/common/ssrf/). Provider base URLs set by the operator are not subject to it.
 */
export const outboundSection = defineSection(
  {
    /** `production` makes OUTBOUND_HTTPS_ONLY default to true and forbids OUTBOUND_ALLOW_LOOPBACK. */
    NODE_ENV: envString(),
    /** auto = https only when NODE_ENV=production; true/false force it. */
    OUTBOUND_HTTPS_ONLY: envEnum(['auto', 'true', 'false'], 'auto'),
    /** Let user-supplied URLs reach 127.0.0.0/8 and ::1: for tests and local development only. */
    OUTBOUND_ALLOW_LOOPBACK: envBool(false),
    /** Upper bound on one outbound HTTP request to a provider or a user-supplied URL. */
    OUTBOUND_TIMEOUT_MS: envInt({ default: 20_000, min: 100, max: 600_000 }),
  },
  (env) => {
    const production = env.NODE_ENV?.trim().toLowerCase() === 'production';
    if (production && env.OUTBOUND_ALLOW_LOOPBACK) {
      throw new Error(
        'Invalid configuration:\n  - OUTBOUND_ALLOW_LOOPBACK=true is refused when NODE_ENV=production: it lets user-supplied URLs reach this machine. Remove it.',
      );
    }
    return {
      production,
      httpsOnly: env.OUTBOUND_HTTPS_ONLY === 'auto' ? production : env.OUTBOUND_HTTPS_ONLY === 'true',
      allowLoopback: env.OUTBOUND_ALLOW_LOOPBACK,
      timeoutMs: env.OUTBOUND_TIMEOUT_MS,
    };
  },
);

export type OutboundConfig = ReturnType<typeof outboundSection.build>;
