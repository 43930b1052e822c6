import { Injectable } from '@nestjs/common';
import { Db } from '../database/db.js';
import * as sql from './sql/batches.sql.js';

export interface NewBatch {
  id: string;
  projectId: string;
  channels: readonly string[];
  tags: readonly { name: string; value: string }[] | null;
  topic: string | null;
  priority: number;
  scheduledAt: Date | null;
  segment: Record<string, unknown> | null;
}

export interface BatchPage {
  subscribers: number;
  created: number;
  deduplicated: number;
  skippedByReason: Record<string, number>;
  topic: string | null;
}

export interface BatchRow {
  id: string;
  projectId: string;
  createdAt: Date;
  completedAt: Date | null;
  channels: string[];
  tags: { name: string; value: string }[] | null;
  topic: string | null;
  priority: number;
  scheduledAt: Date | null;
  segment: Record<string, unknown> | null;
  subscribers: number;
  jobsCreated: number;
  jobsDeduplicated: number;
  skippedByReason: Record<string, number>;
}

/** The batches table and the counts of a batch's jobs (SQL in sql/batches.sql.ts). */
@Injectable()
export class BatchesRepository {
  constructor(private readonly db: Db) {}

  async insert(b: NewBatch): Promise<void> {
    await this.db.exec(sql.INSERT_BATCH, [
      b.id,
      b.projectId,
      b.channels,
      b.tags ? JSON.stringify(b.tags) : null,
      b.topic,
      b.priority,
      b.scheduledAt,
      b.segment ? JSON.stringify(b.segment) : null,
    ]);
  }

  async addPage(id: string, page: BatchPage, complete: boolean): Promise<void> {
    await this.db.exec(sql.ADD_BATCH_PAGE, [
      id,
      page.subscribers,
      page.created,
      page.deduplicated,
      JSON.stringify(page.skippedByReason),
      complete,
      page.topic,
    ]);
  }

  async complete(id: string): Promise<void> {
    await this.db.exec(sql.COMPLETE_BATCH, [id]);
  }

  async delete(id: string): Promise<void> {
    await this.db.exec(sql.DELETE_BATCH, [id]);
  }

  find(id: string, projectId: string | null): Promise<BatchRow | undefined> {
    return this.db.one<BatchRow>(sql.FIND_BATCH, [id, projectId]);
  }

  async jobCounts(id: string): Promise<Record<string, number>> {
    const rows = await this.db.rows<{ status: string; count: number }>(sql.COUNT_BATCH_JOBS, [id]);
    return Object.fromEntries(rows.map((r) => [r.status, r.count]));
  }

  purgeEmpty(createdBefore: Date, limit: number): Promise<number> {
    return this.db.exec(sql.PURGE_EMPTY_BATCHES, [createdBefore, limit]);
  }
}
