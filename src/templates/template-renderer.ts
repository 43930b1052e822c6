import { Injectable, Logger } from '@nestjs/common';
import { SubscribersService } from '../subscribers/subscribers.service.js';
import { pickVariant } from './locale-fallback.js';
import type { RenderedContent, RenderTask, RenderTaskReply } from './render/render-protocol.js';
import { RenderPoolUnavailable, TemplateEngine } from './template-engine.js';
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
 * good (the template does not parse or render, or was stopped at a limit), or `unavailable`
 * (templates could not be read, or no render thread could take the batch: back to the queue). Jobs without a template, or whose channel has no variant (notifyd: the
 * inline fields are used), get no entry.
 */
export type RenderOutcome = { content: RenderedContent; variant: string } | { error: string } | { unavailable: string };

/**
 * Renders a claimed batch's templated jobs: every variant the batch needs and the recipients'
 * locales are read in one query each; the batch is then one task for a render thread (each
 * variant parsed once, identical (variant, vars) pairs rendered once: a batch send shares its
 * vars). A render that fails or is stopped fails its job; no thread free → back to the queue.
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
    // The task: each variant once, each distinct (variant, vars) once; jobs point at their entry.
    const task: RenderTask = { variants: [], renders: [] };
    const variantAt = new Map<string, number>();
    const entryAt = new Map<string, number>();
    const planned: { job: TemplatedJob; entry: number; label: string; locale: string }[] = [];
    for (const job of templated) {
      const candidates = byTemplate.get(`${job.projectId}\n${job.templateId}\n${job.channel}`) ?? [];
      const locale = typeof job.payload.locale === 'string' ? job.payload.locale : locales.get(`${job.projectId}\n${job.subscriberId}`);
      const variant = pickVariant(candidates, locale);
      if (!variant) continue;
      const variantKey = `${job.projectId}\n${job.templateId}\n${job.channel}\n${variant.locale}`;
      if (!variantAt.has(variantKey)) variantAt.set(variantKey, task.variants.push({ subject: variant.subject, body: variant.body, bodyHtml: variant.bodyHtml }) - 1);
      const vars = job.payload.vars ?? {};
      const renderKey = `${variantKey}\n${JSON.stringify(vars)}`;
      if (!entryAt.has(renderKey)) entryAt.set(renderKey, task.renders.push({ variant: variantAt.get(variantKey)!, vars }) - 1);
      const label = `template '${job.templateId}' (${job.channel}${variant.locale ? `, ${variant.locale}` : ''})`;
      planned.push({ job, entry: entryAt.get(renderKey)!, label, locale: variant.locale });
    }
    if (planned.length === 0) return out;
    let reply: RenderTaskReply;
    try {
      reply = await this.engine.renderMany(task);
    } catch (err) {
      if (!(err instanceof RenderPoolUnavailable)) throw err;
      for (const { job } of planned) out.set(job.id, { unavailable: `templates not rendered: ${err.message}` });
      return out;
    }
    for (const { job, entry, label, locale } of planned) {
      const result = reply.renders[entry];
      out.set(job.id, 'error' in result ? { error: `${label}: ${result.error}` } : { content: result.content, variant: locale });
    }
    return out;
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
