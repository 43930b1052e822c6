import { Injectable, Logger } from '@nestjs/common';
import { SubscribersService } from '../subscribers/subscribers.service.js';
import { pickVariant } from './locale-fallback.js';
import type { SubscriberProfile } from '../subscribers/subscriber.types.js';
import type { RenderedContent, RenderTask, RenderTaskReply, TemplateSource } from './render/render-protocol.js';
import { hasLiquid, readsProfile, type RecipientLinks, templateContext } from './template-context.js';
import { RenderPoolUnavailable, TemplateEngine } from './template-engine.js';
import type { TemplateVariantRow } from './template.types.js';
import { TemplatesRepository } from './templates.repository.js';

export interface TemplatedJob {
  id: string;
  projectId: string;
  channel: string;
  templateId: string | null;
  subscriberId: string | null;
  payload: {
    vars?: Record<string, unknown>;
    locale?: unknown;
    subject?: unknown;
    body?: unknown;
    body_html?: unknown;
    [key: string]: unknown;
  };
}

/**
 * What the worker does with a job's content: `content` to send, an `error` that fails it for
 * good (the template or inline Liquid does not parse or render, or was stopped at a limit), or
 * `unavailable` (templates or profiles could not be read, or no render thread could take the
 * batch: back to the queue). Jobs with nothing to render (no template variant for the channel
 * and no Liquid markup in their inline fields) get no entry: their inline fields go as they are.
 */
export type RenderOutcome =
  { content: RenderedContent; variant: string | null } | { error: string } | { unavailable: string };

/** A job's source: its stored variant (absent parts taken from the inline fields), or its inline fields. */
interface Planned {
  job: TemplatedJob;
  source: TemplateSource;
  sourceKey: string;
  label: string;
  locale: string | null;
}

/**
 * Renders a claimed batch: stored templates and inline content with Liquid markup, through the
 * same engine and bounds (the render threads, TEMPLATE_* limits). The variants the batch needs
 * and the recipients' profiles are read in one query each; the batch is then one task for a
 * render thread (each source parsed once, identical (source, vars) pairs rendered once: a batch
 * send shares its vars unless its source reads the recipient's profile). A render that fails or
 * is stopped fails its job; no thread free → back to the queue.
 */
@Injectable()
export class TemplateRenderer {
  private readonly logger = new Logger(TemplateRenderer.name);

  constructor(
    private readonly repository: TemplatesRepository,
    private readonly subscribers: SubscribersService,
    private readonly engine: TemplateEngine,
  ) {}

  /** `linksOf`: the recipient's signed links (`preferences_url`), asked only for sources that read one. */
  async renderBatch(
    jobs: readonly TemplatedJob[],
    linksOf: (job: TemplatedJob) => RecipientLinks = () => ({}),
  ): Promise<Map<string, RenderOutcome>> {
    const out = new Map<string, RenderOutcome>();
    const candidates = jobs.filter((j) => j.templateId || hasInlineLiquid(j));
    if (candidates.length === 0) return out;
    let variants: TemplateVariantRow[];
    let profiles: Map<string, SubscriberProfile>;
    try {
      [variants, profiles] = await Promise.all([this.loadVariants(candidates), this.loadProfiles(candidates)]);
    } catch (err) {
      this.logger.warn(
        `templates or profiles could not be read for ${candidates.length} job(s): ${(err as Error).message}`,
      );
      for (const j of candidates) out.set(j.id, { unavailable: 'templates could not be read; retrying' });
      return out;
    }
    const byTemplate = new Map<string, TemplateVariantRow[]>();
    for (const v of variants) {
      const key = `${v.projectId}\n${v.id}\n${v.channel}`;
      if (!byTemplate.has(key)) byTemplate.set(key, []);
      byTemplate.get(key)!.push(v);
    }
    // The task: each source once, each distinct (source, vars[, recipient]) once; jobs point at their entry.
    const task: RenderTask = { variants: [], renders: [] };
    const sourceAt = new Map<string, { index: number; personal: boolean }>();
    const entryAt = new Map<string, number>();
    const planned: { plan: Planned; entry: number }[] = [];
    for (const job of candidates) {
      const profile = job.subscriberId ? profiles.get(`${job.projectId}\n${job.subscriberId}`) : undefined;
      const plan = this.planOne(job, byTemplate, profile);
      if (!plan) continue;
      let source = sourceAt.get(plan.sourceKey);
      if (!source) {
        source = { index: task.variants.push(plan.source) - 1, personal: readsProfile(plan.source) };
        sourceAt.set(plan.sourceKey, source);
      }
      const vars = job.payload.vars ?? {};
      const renderKey = `${plan.sourceKey}\n${JSON.stringify(vars)}${source.personal ? `\n${job.projectId}\n${job.subscriberId ?? ''}` : ''}`;
      if (!entryAt.has(renderKey)) {
        entryAt.set(
          renderKey,
          task.renders.push({
            variant: source.index,
            vars: source.personal ? templateContext(vars, profile, linksOf(job)) : vars,
          }) - 1,
        );
      }
      planned.push({ plan, entry: entryAt.get(renderKey)! });
    }
    if (planned.length === 0) return out;
    let reply: RenderTaskReply;
    try {
      reply = await this.engine.renderMany(task);
    } catch (err) {
      if (!(err instanceof RenderPoolUnavailable)) throw err;
      for (const { plan } of planned) out.set(plan.job.id, { unavailable: `templates not rendered: ${err.message}` });
      return out;
    }
    for (const { plan, entry } of planned) {
      const result = reply.renders[entry];
      out.set(
        plan.job.id,
        'error' in result
          ? { error: `${plan.label}: ${result.error}` }
          : { content: result.content, variant: plan.locale },
      );
    }
    return out;
  }

  /** The job's source: its template's variant for the channel and locale, else its inline fields when they hold Liquid. */
  private planOne(
    job: TemplatedJob,
    byTemplate: Map<string, TemplateVariantRow[]>,
    profile: SubscriberProfile | undefined,
  ): Planned | undefined {
    const inline = inlineSource(job.payload);
    if (job.templateId) {
      const locale = typeof job.payload.locale === 'string' ? job.payload.locale : profile?.locale;
      const variant = pickVariant(byTemplate.get(`${job.projectId}\n${job.templateId}\n${job.channel}`) ?? [], locale);
      if (variant) {
        // A part the variant lacks (no subject, no HTML) is the inline one, rendered the same way.
        const source: TemplateSource = {
          subject: variant.subject ?? inline.subject,
          body: variant.body,
          bodyHtml: variant.bodyHtml ?? inline.bodyHtml,
        };
        const filled = `${variant.subject === null ? `s${inline.subject}` : ''}\n${variant.bodyHtml === null ? `h${inline.bodyHtml}` : ''}`;
        return {
          job,
          source,
          sourceKey: `t\n${job.projectId}\n${job.templateId}\n${job.channel}\n${variant.locale}\n${filled}`,
          label: `template '${job.templateId}' (${job.channel}${variant.locale ? `, ${variant.locale}` : ''})`,
          locale: variant.locale,
        };
      }
    }
    if (!hasInlineLiquid(job)) return undefined;
    return {
      job,
      source: inline,
      sourceKey: `i\n${JSON.stringify([inline.subject, inline.body, inline.bodyHtml])}`,
      label: `inline content (${job.channel})`,
      locale: null,
    };
  }

  private loadVariants(jobs: readonly TemplatedJob[]): Promise<TemplateVariantRow[]> {
    const keys = new Map<string, { projectId: string; id: string }>();
    for (const j of jobs) keys.set(`${j.projectId}\n${j.templateId}`, { projectId: j.projectId, id: j.templateId! });
    return this.repository.variantsFor([...keys.values()]);
  }

  /** Recipients' profiles (locale for the variant, fields for the render), one query per project in the batch (usually one). */
  private async loadProfiles(jobs: readonly TemplatedJob[]): Promise<Map<string, SubscriberProfile>> {
    const byProject = new Map<string, Set<string>>();
    for (const j of jobs) {
      if (!j.subscriberId) continue;
      if (!byProject.has(j.projectId)) byProject.set(j.projectId, new Set());
      byProject.get(j.projectId)!.add(j.subscriberId);
    }
    const profiles = new Map<string, SubscriberProfile>();
    for (const [projectId, ids] of byProject) {
      for (const [id, s] of await this.subscribers.findProfiles(projectId, [...ids]))
        profiles.set(`${projectId}\n${id}`, s);
    }
    return profiles;
  }
}

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

function inlineSource(payload: TemplatedJob['payload']): TemplateSource {
  return { subject: text(payload.subject), body: text(payload.body) ?? '', bodyHtml: text(payload.body_html) };
}

function hasInlineLiquid(job: TemplatedJob): boolean {
  return (
    hasLiquid(text(job.payload.subject)) || hasLiquid(text(job.payload.body)) || hasLiquid(text(job.payload.body_html))
  );
}
