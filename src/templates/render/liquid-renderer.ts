import { Liquid, type Template } from 'liquidjs';
import {
  PARSING,
  PARTS,
  type ProgressSlots,
  RENDERING,
  type RenderResult,
  type RenderTask,
  type RenderTaskReply,
  type TemplateSource,
  type ThreadLimits,
} from './render-protocol.js';

type Parsed = [subject: Template[] | null, body: Template[], bodyHtml: Template[] | null];

/** The part whose output is HTML (PARTS' body_html): its engine escapes every output. */
const HTML_PART = PARTS.indexOf('body_html');

/** Sources longer than this are parsed each time rather than kept. */
const CACHE_MAX_SOURCE = 256_000;
/** Characters of source kept parsed, all entries together (an LRU evicts past it). */
const CACHE_BUDGET = 2_000_000;

/**
 * Tenant templates through liquidjs, as a render thread runs them: notifyd's `{{var}}` works
 * as is, plus Liquid's filters, conditions and loops. The HTML part escapes every output by
 * default (`| raw` opts out); subject and text parts are not HTML and are not escaped. liquidjs
 * bounds source length (parseLimit), time between nodes (renderLimit) and allocations
 * (memoryLimit); `templates: {}` keeps include/render/layout off the file system. What liquidjs
 * cannot bound (one filter call that runs for minutes) is bounded from outside: the main thread
 * terminates the thread (render-thread-handle.ts). Parsed parts are cached by source.
 */
export class LiquidRenderer {
  private readonly text: Liquid;
  private readonly html: Liquid;
  private readonly cache = new Map<string, Template[]>();
  private cached = 0;

  constructor(private readonly limits: ThreadLimits) {
    const options = {
      parseLimit: limits.parseLimit,
      renderLimit: limits.renderLimitMs,
      memoryLimit: limits.memoryLimit,
      templates: {},
      ownPropertyOnly: true,
    };
    this.text = new Liquid(options);
    this.html = new Liquid({ ...options, outputEscape: 'escape' });
  }

  /** Parses every variant once, then renders each entry; `progress` tells the watchdog which part is running. */
  async run(task: RenderTask, progress?: ProgressSlots): Promise<RenderTaskReply> {
    const parsed: (Parsed | string)[] = task.variants.map((source, i) => this.parseVariant(source, i, progress));
    const renders: RenderResult[] = [];
    for (const [i, entry] of task.renders.entries()) {
      const variant = parsed[entry.variant];
      renders.push(
        typeof variant === 'string' ? { error: variant } : await this.renderVariant(variant, entry.vars, i, progress),
      );
    }
    return { parseErrors: parsed.map((p) => (typeof p === 'string' ? p : null)), renders };
  }

  private parseVariant(source: TemplateSource, index: number, progress?: ProgressSlots): Parsed | string {
    const parts = [source.subject, source.body, source.bodyHtml];
    const out: (Template[] | null)[] = [];
    for (const [part, text] of parts.entries()) {
      if (text === null) {
        out.push(null);
        continue;
      }
      progress?.start(PARSING, index, part);
      try {
        out.push(this.parse(part, text));
      } catch (err) {
        return `${PARTS[part]} does not parse: ${describe(err)}`;
      }
    }
    return out as Parsed;
  }

  private parse(part: number, source: string): Template[] {
    const key = `${part === HTML_PART ? 'h' : 't'}${source}`;
    const hit = this.cache.get(key);
    if (hit) {
      // Most recently used last: eviction takes from the front.
      this.cache.delete(key);
      this.cache.set(key, hit);
      return hit;
    }
    const parsed = this.engine(part).parse(source);
    if (source.length <= CACHE_MAX_SOURCE) {
      this.cache.set(key, parsed);
      this.cached += key.length;
      for (const [old] of this.cache) {
        if (this.cached <= CACHE_BUDGET) break;
        this.cache.delete(old);
        this.cached -= old.length;
      }
    }
    return parsed;
  }

  private engine(part: number): Liquid {
    return part === HTML_PART ? this.html : this.text;
  }

  private async renderVariant(
    variant: Parsed,
    vars: Record<string, unknown>,
    index: number,
    progress?: ProgressSlots,
  ): Promise<RenderResult> {
    const out: (string | undefined)[] = [];
    for (const [part, template] of variant.entries()) {
      if (template === null) {
        out.push(undefined);
        continue;
      }
      progress?.start(RENDERING, index, part);
      try {
        const rendered = String(await this.engine(part).render(template, vars));
        if (rendered.length > this.limits.outputLimit) {
          return {
            error: `${PARTS[part]} failed to render: its output (${rendered.length} characters) is over TEMPLATE_OUTPUT_LIMIT (${this.limits.outputLimit}); render fewer items`,
          };
        }
        out.push(rendered);
      } catch (err) {
        return { error: `${PARTS[part]} failed to render: ${describe(err)}` };
      }
    }
    return { content: { subject: out[0], body: out[1]!, bodyHtml: out[2] } };
  }
}

/** liquidjs messages carry the line and column; stack traces and internals are dropped. */
function describe(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return message.split('\n')[0].slice(0, 300);
}
