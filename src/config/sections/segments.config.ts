import { defineSection } from '../define-section.js';
import { envInt } from '../env-helpers.js';

/** Segments (src/governance/segments/). */
export const segmentsSection = defineSection(
  {
    /** Subscribers read and queued per page when /v1/batch sends to a segment. */
    SEGMENT_PAGE_SIZE: envInt({ default: 5_000, min: 100, max: 10_000 }),
  },
  (env) => ({ pageSize: env.SEGMENT_PAGE_SIZE }),
);
