import { Injectable } from '@nestjs/common';
import { ApiError } from '../../common/errors/api-error.js';
import { Db } from '../../database/db.js';
import { parseDigestWindow } from '../../common/validation/digest-window.js';
import { DIGEST_WINDOWS } from '../../domain/digest-windows.js';
import { TEMPLATE_FUNNEL } from './template-metrics.sql.js';
// Type-only: the row is declared once, as the API documents it.
import type { TemplateFunnelRowDto as TemplateFunnelRow } from './dto/template-metrics.dto.js';

export const TEMPLATE_BUCKETS = { '1h': 'hour', '1d': 'day' } as const;
export type TemplateBucket = keyof typeof TEMPLATE_BUCKETS;

/** The email funnel per template × bucket: which template bounces, which one nobody opens. */
@Injectable()
export class TemplateMetricsService {
  constructor(private readonly db: Db) {}

  async funnel(query: {
    window?: unknown;
    bucket?: unknown;
    projectId?: string;
  }): Promise<{ window: string; bucket: TemplateBucket; rows: TemplateFunnelRow[] }> {
    const window = query.window === undefined || query.window === '' ? '7d' : parseDigestWindow(query.window);
    const bucket = parseBucket(query.bucket);
    const rows = await this.db.rows<Omit<TemplateFunnelRow, 'bucket'> & { bucket: Date }>(TEMPLATE_FUNNEL, [
      DIGEST_WINDOWS[window],
      TEMPLATE_BUCKETS[bucket],
      query.projectId ?? null,
    ]);
    return { window, bucket, rows: rows.map((r) => ({ ...r, bucket: new Date(r.bucket).toISOString() })) };
  }
}

function parseBucket(value: unknown): TemplateBucket {
  if (value === undefined || value === null || value === '') return '1d';
  const text = String(value).trim().toLowerCase();
  if (text in TEMPLATE_BUCKETS) return text as TemplateBucket;
  throw ApiError.badRequest(
    'invalid_bucket',
    `bucket must be 1h or 1d (got ${JSON.stringify(String(value).slice(0, 20))}).`,
  );
}
