import { defineSection } from '../define-section.js';
import { envInt } from '../env-helpers.js';

/** Bounds on tenant templates (liquidjs limits): one bad template fails its job, never the worker. */
export const templatesSection = defineSection(
  {
    /** Longest template source accepted, in characters (liquidjs parseLimit). */
    TEMPLATE_PARSE_LIMIT: envInt({ default: 1_000_000, min: 1_000, max: 100_000_000 }),
    /** Longest time one render may take, in ms (liquidjs renderLimit): stops runaway loops. */
    TEMPLATE_RENDER_LIMIT_MS: envInt({ default: 250, min: 10, max: 60_000 }),
    /** Most memory one render may allocate, roughly in bytes of strings and arrays (liquidjs memoryLimit). */
    TEMPLATE_MEMORY_LIMIT: envInt({ default: 20_000_000, min: 10_000, max: 2_000_000_000 }),
  },
  (env) => ({
    parseLimit: env.TEMPLATE_PARSE_LIMIT,
    renderLimitMs: env.TEMPLATE_RENDER_LIMIT_MS,
    memoryLimit: env.TEMPLATE_MEMORY_LIMIT,
  }),
);

export type TemplatesConfig = ReturnType<typeof templatesSection.build>;
