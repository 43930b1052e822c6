import { Injectable } from '@nestjs/common';
import type { QueryRunner } from 'typeorm';
import { Db } from '../../database/db.js';
import { type CappedJob, type RecipientCap, usageKey } from './cap-rules.js';
import * as sql from './sql/caps.sql.js';

export interface CapRow extends RecipientCap {
  createdAt: Date;
  updatedAt: Date;
}

@Injectable()
export class CapsRepository {
  constructor(readonly db: Db) {}

  list(projectId: string): Promise<CapRow[]> {
    return this.db.rows<CapRow>(sql.LIST_CAPS, [projectId]);
  }

  ofProjects(projectIds: string[]): Promise<CapRow[]> {
    return this.db.rows<CapRow>(sql.CAPS_OF_PROJECTS, [projectIds]);
  }

  async upsert(projectId: string, channel: string, topic: string, maxMessages: number, windowSeconds: number): Promise<CapRow & { created: boolean }> {
    return (await this.db.one<CapRow & { created: boolean }>(sql.UPSERT_CAP, [projectId, channel, topic, maxMessages, windowSeconds]))!;
  }

  async delete(projectId: string, id: string): Promise<boolean> {
    return (await this.db.rows(sql.DELETE_CAP, [projectId, id])).length > 0;
  }

  /** Sends per usageKey(cap, subscriber) within each cap's window, not counting `exclude`. */
  async usage(pairs: { projectId: string; subscriberId: string }[], exclude: string[], runner?: QueryRunner): Promise<Map<string, number>> {
    const rows = await this.db.rows<{ capId: string; subscriberId: string; used: number }>(
      sql.COUNT_USAGE,
      [pairs.map((p) => p.projectId), pairs.map((p) => p.subscriberId), exclude],
      runner,
    );
    return new Map(rows.map((r) => [usageKey(r.capId, r.subscriberId), r.used]));
  }

  async lockSubscribers(keys: string[], runner: QueryRunner): Promise<void> {
    await this.db.rows(sql.LOCK_SUBSCRIBERS, [keys], runner);
  }

  async recordSends(jobs: CappedJob[], runner: QueryRunner): Promise<void> {
    if (jobs.length === 0) return;
    await this.db.exec(
      sql.RECORD_SENDS,
      [jobs.map((j) => j.id), jobs.map((j) => j.projectId), jobs.map((j) => j.subscriberId), jobs.map((j) => j.channel), jobs.map((j) => j.topic)],
      runner,
    );
  }

  purgeOld(limit: number): Promise<number> {
    return this.db.exec(sql.PURGE_OLD_SENDS, [limit]);
  }
}
