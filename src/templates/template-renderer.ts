import { Injectable, Logger } from '@nestjs/common';
import { SubscribersService } from '../subscribers/subscribers.service.js';
import { pickVariant } from './locale-fallback.js';
import { type CompiledTemplate, type RenderedContent, TemplateEngine, TemplateError } from './template-engine.js';
import type { TemplateVariantRow } from './template.types.js';
import { TemplatesRepository } from './templates.repository.js';

export interface TemplatedJob {
  id: string;
  projectId: string;
  channel: string;
  templateId: string | null;
  subscriberId: string | null;
  payload: { vars?: Record<string, unknown>; locale?: unknown; [key: string]: unknown };
}

/**
 * What the worker does with a templated job: `content` to send, an `error` that fails it for
 * good (the template does not parse or render), or `unavailable` (templates could not be read:
 * back to the queue). Jobs without a template, or whose channel has no variant (notifyd: the
 * inline fields are used), get no entry.
 */
export type RenderOutcome = { content: RenderedContent; variant: string } | { error: string } | { unavailable: string };

/**
 * Renders a claimed batch's templated jobs: every variant the batch needs and the recipients'
 * locales are read in one query each; each variant is parsed once; identical (variant, vars)
 * pairs (a batch send shares its vars) are rendered once.
 */
@Injectable()
export class TemplateRenderer {
  private readonly logger = new Logger(TemplateRenderer.name);

  constructor(
    private readonly repository: TemplatesRepository,
    private readonly subscribers: SubscribersService,
    private readonly engine: TemplateEngine,
  ) {}

  async renderBatch(jobs: readonly TemplatedJob[]): Promise<Map<string, RenderOutcome>> {
    const out = new Map<string, RenderOutcome>();
    const templated = jobs.filter((j) => j.templateId);
    if (templated.length === 0) return out;
    let variants: TemplateVariantRow[];
    let locales: Map<string, string | null>;
    try {
      [variants, locales] = await Promise.all([this.loadVariants(templated), this.loadLocales(templated)]);
    } catch (err) {
      this.logger.warn(`templates could not be read for ${templated.length} job(s): ${(err as Error).message}`);
      for (const j of templated) out.set(j.id, { unavailable: 'templates could not be read; retrying' });
      return out;
    }
    const byTemplate = new Map<string, TemplateVariantRow[]>();
    for (const v of variants) {
      const key = `${v.projectId}\n${v.id}\n${v.channel}`;
      if (!byTemplate.has(key)) byTemplate.set(key, []);
      byTemplate.get(key)!.push(v);
    }
    const compiled = new Map<string, CompiledTemplate | TemplateError>();
    const rendered = new Map<string, RenderOutcome>();
    for (const job of templated) {
      const candidates = byTemplate.get(`${job.projectId}\n${job.templateId}\n${job.channel}`) ?? [];
      const locale = typeof job.payload.locale === 'string' ? job.payload.locale : locales.get(`${job.projectId}\n${job.subscriberId}`);
      const variant = pickVariant(candidates, locale);
      if (!variant) continue;
      const variantKey = `${job.projectId}\n${job.templateId}\n${job.channel}\n${variant.locale}`;
      const label = `template '${job.templateId}' (${job.channel}${variant.locale ? `, ${variant.locale}` : ''})`;
      if (!compiled.has(variantKey)) compiled.set(variantKey, this.compile(variant));
      const template = compiled.get(variantKey)!;
      if (template instanceof TemplateError) {
        out.set(job.id, { error: `${label}: ${template.message}` });
        continue;
      }
      const vars = job.payload.vars ?? {};
      const renderKey = `${variantKey}\n${JSON.stringify(vars)}`;
      if (!rendered.has(renderKey)) rendered.set(renderKey, await this.render(template, vars, label, variant.locale));
      out.set(job.id, rendered.get(renderKey)!);
    }
    return out;
  }

  private compile(variant: TemplateVariantRow): CompiledTemplate | TemplateError {
    try {
      return this.engine.compile(variant);
    } catch (err) {
      if (err instanceof TemplateError) return err;
      throw err;
    }
  }

  private async render(template: CompiledTemplate, vars: Record<string, unknown>, label: string, locale: string): Promise<RenderOutcome> {
    try {
      return { content: await this.engine.render(template, vars), variant: locale };
    } catch (err) {
      if (err instanceof TemplateError) return { error: `${label}: ${err.message}` };
      throw err;
    }
  }

  private loadVariants(jobs: readonly TemplatedJob[]): Promise<TemplateVariantRow[]> {
    const keys = new Map<string, { projectId: string; id: string }>();
    for (const j of jobs) keys.set(`${j.projectId}\n${j.templateId}`, { projectId: j.projectId, id: j.templateId! });
    return this.repository.variantsFor([...keys.values()]);
  }

  /** Recipients' locales, one query per project in the batch (usually one). */
  private async loadLocales(jobs: readonly TemplatedJob[]): Promise<Map<string, string | null>> {
    const byProject = new Map<string, Set<string>>();
    for (const j of jobs) {
      if (!j.subscriberId || typeof j.payload.locale === 'string') continue;
      if (!byProject.has(j.projectId)) byProject.set(j.projectId, new Set());
      byProject.get(j.projectId)!.add(j.subscriberId);
    }
    const locales = new Map<string, string | null>();
    for (const [projectId, ids] of byProject) {
      for (const [id, s] of await this.subscribers.findAddresses(projectId, [...ids])) locales.set(`${projectId}\n${id}`, s.locale);
    }
    return locales;
  }
}
