import { Injectable } from '@nestjs/common';
import { Db } from '../../database/db.js';
import type { CompiledSegment } from './segment-compiler.js';
import { countMatching, pageMatching, sampleMatching } from './sql/segments.sql.js';

@Injectable()
export class SegmentsRepository {
  constructor(private readonly db: Db) {}

  async count(projectId: string, segment: CompiledSegment): Promise<number> {
    const [row] = await this.db.rows<{ count: number }>(countMatching(segment.where), [projectId, ...segment.params]);
    return row.count;
  }

  async sample(projectId: string, segment: CompiledSegment): Promise<string[]> {
    return (await this.db.rows<{ id: string }>(sampleMatching(segment.where), [projectId, ...segment.params])).map(
      (r) => r.id,
    );
  }

  /** Matching ids after `after` (exclusive; '' = from the start), at most `limit`. */
  async page(projectId: string, segment: CompiledSegment, after: string, limit: number): Promise<string[]> {
    const sql = pageMatching(segment.where, segment.params.length + 2);
    return (await this.db.rows<{ id: string }>(sql, [projectId, ...segment.params, after, limit])).map((r) => r.id);
  }
}
