import { Injectable } from '@nestjs/common';
import { ApiError } from '../common/errors/api-error.js';
import type {
  DeleteTemplateQueryDto,
  PreviewTemplateDto,
  TemplatePreviewDto,
  TemplateVariantDto,
  UpsertTemplateDto,
} from './dto/template.dto.js';
import { pickVariant } from './locale-fallback.js';
import { decodeTemplateCursor, encodeTemplateCursor } from './template-cursor.js';
import { RenderPoolUnavailable, TemplateEngine, TemplateError, type TemplateSource } from './template-engine.js';
import type { TemplateRow } from './template.types.js';
import { TemplatesRepository } from './templates.repository.js';
import { hasLiquid, templateContext } from './template-context.js';
import { SubscribersService } from '../subscribers/subscribers.service.js';
import type { SubscriberProfile } from '../subscribers/subscriber.types.js';

/** A page of variants; nextCursor is null on the last page. */
export interface TemplatePage {
  items: TemplateRow[];
  total: number;
  nextCursor: string | null;
}

/** Stored templates: CRUD, preview, and what enqueue needs (does it exist, its topic). */
@Injectable()
export class TemplatesService {
  /** Inline sources that parsed (JSON of subject, body, body_html), at most INLINE_PARSED_MAX. */
  private readonly inlineParsed = new Set<string>();

  constructor(
    private readonly repository: TemplatesRepository,
    private readonly engine: TemplateEngine,
    private readonly subscribers: SubscribersService,
  ) {}

  /** Saves one variant after checking that every part parses (422 naming the part otherwise). */
  async upsert(projectId: string, dto: UpsertTemplateDto): Promise<boolean> {
    const source = { subject: dto.subject ?? null, body: dto.body, bodyHtml: dto.body_html ?? null };
    await this.assertParses(source, '');
    return this.repository.upsert(projectId, {
      id: dto.id,
      channel: dto.channel,
      locale: dto.locale ?? '',
      ...source,
      topic: dto.topic ?? null,
    });
  }

  /**
   * A page of variants after `cursor` (next_cursor of the previous page), or at the deprecated
   * `offset`. Reads limit + 1 rows: the extra one says whether there is a next page.
   */
  async list(
    projectId: string,
    q: { limit: number; cursor?: string; offset?: number; channel?: string },
  ): Promise<TemplatePage> {
    const offset = q.offset ?? 0;
    if (q.cursor !== undefined && offset > 0)
      throw ApiError.unprocessable(
        'validation_failed',
        'Send either cursor or offset, not both: cursor replaces offset (deprecated).',
      );
    const after = decodeTemplateCursor(q.cursor);
    const rows = await this.repository.list(projectId, { channel: q.channel, after, limit: q.limit + 1, offset });
    const items = rows.slice(0, q.limit);
    // A page past the end has no rows to carry the total: count it on its own.
    const total = rows[0]?.total ?? (after || offset > 0 ? await this.repository.count(projectId, q.channel) : 0);
    return { items, total, nextCursor: rows.length > q.limit ? encodeTemplateCursor(items[items.length - 1]) : null };
  }

  async get(projectId: string, id: string): Promise<TemplateRow[]> {
    const variants = await this.repository.find(projectId, id);
    if (variants.length === 0) throw ApiError.notFound('Template', id);
    return variants;
  }

  /**
   * The channels each of these templates has variants for (any locale), in one read; a template
   * that does not exist is absent from the map.
   */
  async channelsOf(projectId: string, ids: readonly string[]): Promise<Map<string, Set<string>>> {
    const rows = await this.repository.channelsOf(projectId, [...new Set(ids)]);
    return new Map(rows.map((r) => [r.id, new Set(r.channels)]));
  }

  async delete(projectId: string, id: string, query: DeleteTemplateQueryDto): Promise<number> {
    const locale = query.locale === undefined ? undefined : query.locale === 'default' ? '' : query.locale;
    const deleted = await this.repository.delete(projectId, id, query.channel, locale);
    if (deleted === 0) throw ApiError.notFound('Template', id);
    return deleted;
  }

  /** Renders a variant with sample vars (and a stored subscriber's profile), exactly as the worker would. */
  async preview(projectId: string, id: string, dto: PreviewTemplateDto): Promise<TemplatePreviewDto> {
    const variants = await this.get(projectId, id);
    const profile = dto.subscriber_id === undefined ? undefined : await this.profileOf(projectId, dto.subscriber_id);
    const channels = [...new Set(variants.map((v) => v.channel))];
    const channel = dto.channel ?? (channels.length === 1 ? channels[0] : undefined);
    if (!channel)
      throw ApiError.unprocessable(
        'validation_failed',
        `channel is required: template '${id}' has variants for ${channels.join(', ')}.`,
      );
    const variant = pickVariant(
      variants.filter((v) => v.channel === channel),
      dto.locale ?? profile?.locale,
    );
    if (!variant) throw ApiError.notFound(`Template '${id}' variant for channel`, channel);
    try {
      const source = dto.draft
        ? {
            ...variant,
            subject: dto.draft.subject ?? null,
            body: dto.draft.body,
            bodyHtml: dto.draft.body_html ?? null,
          }
        : variant;
      const rendered = await this.engine.renderOne(source, templateContext(dto.vars ?? {}, profile));
      return {
        template_id: id,
        channel,
        locale: variant.locale || null,
        subject: rendered.subject ?? null,
        body: rendered.body,
        body_html: rendered.bodyHtml ?? null,
        topic: variant.topic,
      };
    } catch (err) {
      if (err instanceof TemplateError) throw ApiError.unprocessable('template_render_failed', err.message);
      throw busy(err);
    }
  }

  /** The subscriber a preview renders for; 422 naming the field when the project has no such subscriber. */
  private async profileOf(projectId: string, subscriberId: string): Promise<SubscriberProfile> {
    const profile = (await this.subscribers.findProfiles(projectId, [subscriberId])).get(subscriberId);
    if (profile) return profile;
    throw ApiError.unprocessable(
      'subscriber_not_found',
      `subscriber_id '${subscriberId}' does not exist in this project: create it with POST /v1/subscribers, or preview with vars only.`,
    );
  }

  /**
   * Inline subject/body/body_html holding Liquid markup must parse: a send whose inline Liquid
   * does not is refused (422 naming the part), not queued to fail at the worker. Content
   * without markup goes as it is and is not checked. Sources found good are remembered (the
   * same inline template sent many times is parsed once per process).
   */
  async checkInline(content: { subject?: string; body?: string; body_html?: string }): Promise<void> {
    if (!hasLiquid(content.subject) && !hasLiquid(content.body) && !hasLiquid(content.body_html)) return;
    const source = { subject: content.subject ?? null, body: content.body ?? '', bodyHtml: content.body_html ?? null };
    const key = JSON.stringify([source.subject, source.body, source.bodyHtml]);
    if (this.inlineParsed.has(key)) return;
    await this.assertParses(source, 'inline ');
    if (this.inlineParsed.size >= INLINE_PARSED_MAX) this.inlineParsed.clear();
    this.inlineParsed.add(key);
  }

  /** Every part of `source` parses, or a 422 template_invalid naming the part (after `prefix`). */
  private async assertParses(source: TemplateSource, prefix: string): Promise<void> {
    try {
      await this.engine.check(source);
    } catch (err) {
      if (err instanceof TemplateError)
        throw ApiError.unprocessable(
          'template_invalid',
          `${prefix}${err.message}. Fix the Liquid syntax (e.g. close every {% if %} with {% endif %}), or wrap literal braces in {% raw %}…{% endraw %}.`,
        );
      throw busy(err);
    }
  }

  /**
   * For a send naming a template: its topic (the first variant's that has one). 422 naming the
   * field when the template does not exist: a send would otherwise go out empty.
   */
  async forSend(projectId: string, id: string): Promise<{ topic: string | null }> {
    const { found, topic } = await this.repository.forSend(projectId, id);
    if (!found) {
      throw ApiError.unprocessable(
        'template_not_found',
        `template '${id}' does not exist in this project; create it with POST /v1/templates or send inline subject/body.`,
      );
    }
    return { topic };
  }
}

/** Remembered inline sources; the set starts again when full (a miss costs one parse in a render thread). */
const INLINE_PARSED_MAX = 1_000;

/** No render thread free (TEMPLATE_RENDER_QUEUE full) or shutting down: a 503 the caller may retry. */
function busy(err: unknown): unknown {
  return err instanceof RenderPoolUnavailable ? ApiError.unavailable('template_renderer_busy', err.message) : err;
}

export function presentVariant(t: TemplateRow): TemplateVariantDto {
  return {
    id: t.id,
    channel: t.channel,
    locale: t.locale || null,
    subject: t.subject,
    body: t.body,
    body_html: t.bodyHtml,
    topic: t.topic,
    created_at: t.createdAt.toISOString(),
    updated_at: t.updatedAt.toISOString(),
  };
}
