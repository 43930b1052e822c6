import { Inject, Injectable } from '@nestjs/common';
import { Liquid, type Template } from 'liquidjs';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';

/** A template that cannot be parsed or rendered; the message says where and why, for the tenant. */
export class TemplateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TemplateError';
  }
}

export interface TemplateSource {
  subject: string | null;
  body: string;
  bodyHtml: string | null;
}

export interface RenderedContent {
  subject?: string;
  body: string;
  bodyHtml?: string;
}

/** Parsed once, rendered for many jobs of a claimed batch. */
export interface CompiledTemplate {
  subject: Template[] | null;
  body: Template[];
  bodyHtml: Template[] | null;
}

/**
 * Tenant templates through liquidjs: notifyd's `{{var}}` works as is, plus Liquid's filters,
 * conditions and loops. The HTML part escapes every output by default (`| raw` opts out);
 * subject and text parts are not HTML and are not escaped. Bounded for untrusted authors:
 * source length (parseLimit), render time (renderLimit, stops an unbounded loop) and memory
 * (memoryLimit). `templates: {}` keeps include/render/layout off the file system.
 */
@Injectable()
export class TemplateEngine {
  private readonly text: Liquid;
  private readonly html: Liquid;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    const limits = {
      parseLimit: config.templates.parseLimit,
      renderLimit: config.templates.renderLimitMs,
      memoryLimit: config.templates.memoryLimit,
      templates: {},
      ownPropertyOnly: true,
    };
    this.text = new Liquid(limits);
    this.html = new Liquid({ ...limits, outputEscape: 'escape' });
  }

  /** Parses every part; throws TemplateError naming the part. Used when a template is saved and before a batch renders. */
  compile(source: TemplateSource): CompiledTemplate {
    return {
      subject: source.subject === null ? null : parse(this.text, source.subject, 'subject'),
      body: parse(this.text, source.body, 'body'),
      bodyHtml: source.bodyHtml === null ? null : parse(this.html, source.bodyHtml, 'body_html'),
    };
  }

  async render(compiled: CompiledTemplate, vars: Record<string, unknown>): Promise<RenderedContent> {
    return {
      subject: compiled.subject ? await render(this.text, compiled.subject, vars, 'subject') : undefined,
      body: await render(this.text, compiled.body, vars, 'body'),
      bodyHtml: compiled.bodyHtml ? await render(this.html, compiled.bodyHtml, vars, 'body_html') : undefined,
    };
  }
}

function parse(engine: Liquid, source: string, part: string): Template[] {
  try {
    return engine.parse(source);
  } catch (err) {
    throw new TemplateError(`${part} does not parse: ${describe(err)}`);
  }
}

async function render(engine: Liquid, template: Template[], vars: Record<string, unknown>, part: string): Promise<string> {
  try {
    return String(await engine.render(template, vars));
  } catch (err) {
    throw new TemplateError(`${part} failed to render: ${describe(err)}`);
  }
}

/** liquidjs messages carry the line and column; stack traces and internals are dropped. */
function describe(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return message.split('\n')[0].slice(0, 300);
}
