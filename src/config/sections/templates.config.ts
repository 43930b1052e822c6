import { defineSettings, setting } from '../define-section.js';
import { envInt } from '../env-helpers.js';

/**
 * Bounds on tenant templates. Every parse and render runs in a small pool of worker threads
 * (src/templates/render/), so one bad template fails its own render, never the process: a part
 * that runs past the time limit or the memory cap has its thread terminated and replaced.
 */
export const templatesSection = defineSettings({
  /** Longest template source accepted, in characters (liquidjs parseLimit). */
  parseLimit: setting('TEMPLATE_PARSE_LIMIT', envInt({ default: 1_000_000, min: 1_000, max: 100_000_000 })),
  /**
   * Longest time one part (subject, body, body_html) may take to parse or render, in ms: a
   * hard wall-clock limit (the render thread is terminated past it), and liquidjs renderLimit.
   */
  renderLimitMs: setting('TEMPLATE_RENDER_LIMIT_MS', envInt({ default: 250, min: 10, max: 60_000 })),
  /** Most memory one render may allocate, roughly in bytes of strings and arrays (liquidjs memoryLimit). */
  memoryLimit: setting('TEMPLATE_MEMORY_LIMIT', envInt({ default: 20_000_000, min: 10_000, max: 2_000_000_000 })),
  /** Longest rendered part, in characters; a longer output fails its render. */
  outputLimit: setting('TEMPLATE_OUTPUT_LIMIT', envInt({ default: 1_000_000, min: 1_000, max: 100_000_000 })),
  /** Worker threads that parse and render templates (each holds its own V8 heap, ~10 MB idle). */
  threads: setting('TEMPLATE_RENDER_THREADS', envInt({ default: 2, min: 1, max: 32 })),
  /** Heap cap of one render thread, in MB (V8 old generation); a render past it fails and the thread is replaced. */
  threadMemoryMb: setting('TEMPLATE_RENDER_THREAD_MEMORY_MB', envInt({ default: 64, min: 16, max: 4_096 })),
  /**
   * Render requests (a preview, a save, one claimed batch) waiting for a free thread. Past it:
   * a preview or save is a 503 and a claimed batch's templated jobs go back to the queue.
   */
  queueLimit: setting('TEMPLATE_RENDER_QUEUE', envInt({ default: 64, min: 1, max: 10_000 })),
});

export type TemplatesConfig = ReturnType<typeof templatesSection.build>;
