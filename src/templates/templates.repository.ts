import { Injectable } from '@nestjs/common';
import { Db } from '../database/db.js';
import * as sql from './sql/templates.sql.js';
import type { TemplateKey } from './template-cursor.js';
import type { TemplateRow, TemplateVariantRow } from './template.types.js';

/** A variant as written: a stored row without its timestamps. */
export type TemplateVariantInput = Omit<TemplateRow, 'createdAt' | 'updatedAt'>;

/** All SQL of stored templates. */
@Injectable()
export class TemplatesRepository {
  constructor(private readonly db: Db) {}

  async upsert(projectId: string, t: TemplateVariantInput): Promise<boolean> {
    const row = await this.db.one<{ created: boolean }>(sql.UPSERT_TEMPLATE, [
      projectId,
      t.id,
      t.channel,
      t.locale,
      t.subject,
      t.body,
      t.bodyHtml,
      t.topic,
    ]);
    return row?.created ?? false;
  }

  /** A page after `after` (from the start without one), skipping `offset` more rows (deprecated). */
  list(
    projectId: string,
    q: { channel?: string; after?: TemplateKey; limit: number; offset: number },
  ): Promise<(TemplateRow & { total: number })[]> {
    const after = q.after ?? { id: '', channel: '', locale: '' };
    return this.db.rows(sql.LIST_TEMPLATES, [
      projectId,
      q.channel ?? null,
      q.limit,
      q.offset,
      after.id,
      after.channel,
      after.locale,
    ]);
  }

  async count(projectId: string, channel: string | undefined): Promise<number> {
    return (await this.db.one<{ total: number }>(sql.COUNT_TEMPLATES, [projectId, channel ?? null]))?.total ?? 0;
  }

  find(projectId: string, id: string): Promise<TemplateRow[]> {
    return this.db.rows<TemplateRow>(sql.FIND_TEMPLATE, [projectId, id]);
  }

  /** The channels each of these templates has variants for; a template that does not exist has no row (TEMPLATE_CHANNELS). */
  channelsOf(projectId: string, ids: readonly string[]): Promise<{ id: string; channels: string[] }[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db.rows<{ id: string; channels: string[] }>(sql.TEMPLATE_CHANNELS, [projectId, ids]);
  }

  /** Whether the template exists, and its topic (see TEMPLATE_FOR_SEND). */
  async forSend(projectId: string, id: string): Promise<{ found: boolean; topic: string | null }> {
    return (await this.db.one<{ found: boolean; topic: string | null }>(sql.TEMPLATE_FOR_SEND, [projectId, id]))!;
  }

  delete(projectId: string, id: string, channel: string | undefined, locale: string | undefined): Promise<number> {
    return this.db.exec(sql.DELETE_TEMPLATE, [projectId, id, channel ?? null, locale ?? null]);
  }

  variantsFor(keys: readonly { projectId: string; id: string }[]): Promise<TemplateVariantRow[]> {
    return this.db.rows<TemplateVariantRow>(sql.VARIANTS_FOR_KEYS, [
      keys.map((k) => k.projectId),
      keys.map((k) => k.id),
    ]);
  }
}
