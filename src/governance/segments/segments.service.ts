import { Inject, Injectable } from '@nestjs/common';
import type { AppConfig } from '../../config/app-config.js';
import { APP_CONFIG } from '../../config/config.module.js';
import { ApiError } from '../../common/errors/api-error.js';
import { type CompiledSegment, compileSegment, SegmentError } from './segment-compiler.js';
import { SegmentsRepository } from './segments.repository.js';

/** Segments: who in a project matches a filter, counted, sampled or streamed page by page. */
@Injectable()
export class SegmentsService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly repository: SegmentsRepository,
  ) {}

  /** Compiles a caller's segment; a malformed one (or an injection attempt) is a 400 naming the part. */
  compile(raw: unknown): CompiledSegment {
    try {
      // $1 is the project id in every statement.
      return compileSegment(raw, 2);
    } catch (err) {
      if (err instanceof SegmentError) throw ApiError.badRequest('invalid_segment', err.message);
      throw err;
    }
  }

  async preview(projectId: string, raw: unknown): Promise<{ count: number; sample: string[] }> {
    const segment = this.compile(raw);
    const [count, sample] = await Promise.all([
      this.repository.count(projectId, segment),
      this.repository.sample(projectId, segment),
    ]);
    return { count, sample };
  }

  /**
   * The matching subscriber ids in pages of SEGMENT_PAGE_SIZE, read one page at a time by
   * keyset, so a caller that handles each page before asking for the next holds one page in
   * memory whatever the segment's size.
   */
  async *pages(projectId: string, raw: unknown): AsyncGenerator<string[]> {
    const segment = this.compile(raw);
    const size = this.config.segments.pageSize;
    let after = '';
    for (;;) {
      const ids = await this.repository.page(projectId, segment, after, size);
      if (ids.length === 0) return;
      yield ids;
      if (ids.length < size) return;
      after = ids[ids.length - 1];
    }
  }
}
