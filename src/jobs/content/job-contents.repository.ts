import { Injectable } from '@nestjs/common';
import { Db } from '../../database/db.js';
import type { KeptContent } from './content-bounds.js';
import { FIND_JOB_CONTENT, SAVE_JOB_CONTENTS } from './job-contents.sql.js';

export interface StoredContent extends KeptContent {
  renderedAt: Date;
}

/** job_contents: the rendered subject and body of each job (see migrations/0082-job-contents.ts). */
@Injectable()
export class JobContentsRepository {
  constructor(private readonly db: Db) {}

  /** One statement for a batch. */
  async save(rows: readonly { jobId: string; content: KeptContent }[]): Promise<void> {
    if (rows.length === 0) return;
    await this.db.exec(SAVE_JOB_CONTENTS, [
      rows.map((r) => r.jobId),
      rows.map((r) => r.content.subject),
      rows.map((r) => r.content.body),
      rows.map((r) => r.content.bodyHtml),
      rows.map((r) => r.content.truncated),
    ]);
  }

  find(jobId: string): Promise<StoredContent | undefined> {
    return this.db.one<StoredContent>(FIND_JOB_CONTENT, [jobId]);
  }
}
