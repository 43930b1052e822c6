import { defineSection } from '../define-section.js';
import { envInt } from '../env-helpers.js';

export const observabilitySection = defineSection(
  {
    /** How often one replica recomputes the queue gauges that /v1/metrics/prometheus reports. */
    METRICS_GAUGE_INTERVAL_SECS: envInt({ default: 15, min: 1, max: 3_600 }),
  },
  (env) => ({
    gaugeIntervalMs: env.METRICS_GAUGE_INTERVAL_SECS * 1000,
  }),
);

export type ObservabilityConfig = ReturnType<typeof observabilitySection.build>;
