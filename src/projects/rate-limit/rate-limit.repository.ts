import { Injectable } from '@nestjs/common';
import { Db } from '../../database/db.js';
import type { WindowSync } from '../../common/rate-limit/window-counts.js';
import * as sql from './rate-limit.sql.js';

@Injectable()
export class RateLimitRepository {
  constructor(private readonly db: Db) {}

  /** Writes this process's counts, reads the others' totals: one round trip. */
  async sync(replica: string, sync: WindowSync): Promise<{ others: Map<string, number>; dbNowMs: number | undefined }> {
    const rows = await this.db.rows<{ scope: string; others: number; dbNowMs: number }>(sql.SYNC_RATE_COUNTS, [
      new Date(sync.windowStart),
      replica,
      sync.writes.map((w) => w.scope),
      sync.writes.map((w) => w.admitted),
      sync.reads,
    ]);
    return { others: new Map(rows.map((r) => [r.scope, r.others])), dbNowMs: rows[0]?.dbNowMs };
  }

  async purgeBefore(windowStart: number): Promise<void> {
    await this.db.exec(sql.PURGE_RATE_COUNTS, [new Date(windowStart)]);
  }
}
