import { Inject, Injectable } from '@nestjs/common';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import { succeeds } from '../config/succeeds.js';
import {
  PARSING,
  PARTS,
  type RenderedContent,
  type RenderResult,
  type RenderTask,
  type RenderTaskReply,
  type TemplateSource,
} from './render/render-protocol.js';
import { type Stopped, UnsendableTask } from './render/render-thread-handle.js';
import { RenderPoolUnavailable, TemplateRenderPool } from './render/template-render-pool.js';

export type { RenderedContent, TemplateSource };
export { RenderPoolUnavailable };

/** A template that cannot be parsed or rendered; the message says where and why, for the tenant. */
export class TemplateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TemplateError';
  }
}

/**
 * Every parse and render of a tenant template, bounded: the work runs in the render threads
 * (render/template-render-pool.ts), never on the event loop. A part stopped from outside (too
 * long, too much memory) fails its variant's renders in this task with a message naming the
 * limit; the other variants are run again on a fresh thread. Throws RenderPoolUnavailable when
 * no thread can take the work (queue full, shutting down).
 */
@Injectable()
export class TemplateEngine {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly pool: TemplateRenderPool,
  ) {}

  /** Parses every part; throws TemplateError naming the part. Used when a template is saved. */
  async check(source: TemplateSource): Promise<void> {
    const { parseErrors } = await this.renderMany({ variants: [source], renders: [] });
    if (parseErrors[0]) throw new TemplateError(parseErrors[0]);
  }

  /** One variant with one set of vars (a preview); throws TemplateError. */
  async renderOne(source: TemplateSource, vars: Record<string, unknown>): Promise<RenderedContent> {
    const { renders } = await this.renderMany({ variants: [source], renders: [{ variant: 0, vars }] });
    const result = renders[0];
    if ('error' in result) throw new TemplateError(result.error);
    return result.content;
  }

  /**
   * A whole task (a claimed batch: each variant parsed once, each entry rendered) in one round
   * trip to a thread. When a part is stopped, that variant is given up for this task (its other
   * entries would most likely be stopped too, each costing a thread) and the rest run again.
   */
  async renderMany(task: RenderTask): Promise<RenderTaskReply> {
    const parseErrors: (string | null)[] = task.variants.map(() => null);
    const renders: (RenderResult | undefined)[] = task.renders.map(() => undefined);
    let variants = task.variants.map((_, i) => i);
    let entries = task.renders.map((_, i) => i);
    while (variants.length > 0) {
      const position = new Map(variants.map((v, i) => [v, i]));
      let outcome: Awaited<ReturnType<TemplateRenderPool['run']>>;
      try {
        outcome = await this.pool.run({
          variants: variants.map((v) => task.variants[v]),
          renders: entries.map((e) => ({
            variant: position.get(task.renders[e].variant)!,
            vars: task.renders[e].vars,
          })),
        });
      } catch (err) {
        if (!(err instanceof UnsendableTask)) throw err;
        // Some entry's vars cannot be cloned: fail those entries (found by cloning each here,
        // only on this rare path) and run the rest; none found fails every entry, never loops.
        const message = `vars cannot be rendered: they could not be handed to a render thread (${err.detail}); vars nested this deep are refused: send flatter vars`;
        const bad = new Set(entries.filter((e) => !succeeds(() => structuredClone(task.renders[e].vars))));
        for (const e of bad.size ? bad : entries) renders[e] = { error: message };
        if (!bad.size) break;
        entries = entries.filter((e) => !bad.has(e));
        continue;
      }
      if ('reply' in outcome) {
        variants.forEach((v, i) => (parseErrors[v] = outcome.reply.parseErrors[i]));
        entries.forEach((e, i) => (renders[e] = outcome.reply.renders[i]));
        break;
      }
      const stopped = outcome.stopped;
      if (stopped.reason === 'closed') throw new RenderPoolUnavailable('the template renderer is shutting down');
      const culprit =
        stopped.kind === PARSING ? variants[stopped.index] : task.renders[entries[stopped.index]]?.variant;
      const message = this.describe(stopped);
      // Cannot happen (the slots name a unit of this task); guards against looping on a bad index.
      if (culprit === undefined)
        throw new Error(`render thread stopped at an unknown unit: ${JSON.stringify(stopped)}`);
      if (stopped.kind === PARSING) parseErrors[culprit] = message;
      for (const e of entries) if (task.renders[e].variant === culprit) renders[e] = { error: message };
      variants = variants.filter((v) => v !== culprit);
      entries = entries.filter((e) => task.renders[e].variant !== culprit);
    }
    return { parseErrors, renders: renders.map((r) => r ?? { error: 'not rendered' }) };
  }

  private describe(stopped: Stopped): string {
    const { renderLimitMs, threadMemoryMb } = this.config.templates;
    const part = `${PARTS[stopped.part] ?? 'template'} ${stopped.kind === PARSING ? 'does not parse' : 'failed to render'}`;
    switch (stopped.reason) {
      case 'time':
        return `${part}: stopped after TEMPLATE_RENDER_LIMIT_MS (${renderLimitMs} ms); a loop or filter over many items (e.g. a range like (1..1000000)) takes too long: work on fewer items`;
      case 'memory':
        return `${part}: stopped at TEMPLATE_RENDER_THREAD_MEMORY_MB (${threadMemoryMb} MB) of memory; a large range or a string grown in a loop does this: work on fewer items`;
      default:
        return `${part}: ${stopped.detail}`;
    }
  }
}
