import { Injectable } from '@nestjs/common';
import type { QueryRunner } from 'typeorm';
import { Db } from '../../database/db.js';
import { type CappedJob, type RecipientCap, usageKey } from './cap-rules.js';
import * as holdSql from './sql/cap-holds.sql.js';
import * as sql from './sql/caps.sql.js';
import { columnsOf } from '../../database/columns.js';

/** A job accepted at enqueue, holding a slot until the worker sends (or drops) it. */
export interface CapHold extends CappedJob {
  dueAt: Date;
}

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

  async upsert(
    projectId: string,
    channel: string,
    topic: string,
    maxMessages: number,
    windowSeconds: number,
  ): Promise<CapRow & { created: boolean }> {
    return (await this.db.one<CapRow & { created: boolean }>(sql.UPSERT_CAP, [
      projectId,
      channel,
      topic,
      maxMessages,
      windowSeconds,
    ]))!;
  }

  async delete(projectId: string, id: string): Promise<boolean> {
    return (await this.db.rows(sql.DELETE_CAP, [projectId, id])).length > 0;
  }

  /** Sends per usageKey(cap, subscriber) within each cap's window, not counting `exclude`. */
  async usage(
    pairs: { projectId: string; subscriberId: string }[],
    exclude: string[],
    runner?: QueryRunner,
  ): Promise<Map<string, number>> {
    const rows = await this.db.rows<{ capId: string; subscriberId: string; used: number }>(
      sql.COUNT_USAGE,
      [pairs.map((p) => p.projectId), pairs.map((p) => p.subscriberId), exclude],
      runner,
    );
    return new Map(rows.map((r) => [usageKey(r.capId, r.subscriberId), r.used]));
  }

  /**
   * Enqueue's count per usageKey(cap, subscriber): ledger sends plus holds of live jobs around
   * each pair's due time (null = now), not counting jobs that hold `idempotencyKeys`.
   */
  async usageAtEnqueue(
    pairs: { projectId: string; subscriberId: string; dueAt: Date | null }[],
    idempotencyKeys: string[],
    runner?: QueryRunner,
  ): Promise<Map<string, number>> {
    const rows = await this.db.rows<{ capId: string; subscriberId: string; used: number }>(
      holdSql.COUNT_USAGE_AT_ENQUEUE,
      [pairs.map((p) => p.projectId), pairs.map((p) => p.subscriberId), pairs.map((p) => p.dueAt), idempotencyKeys],
      runner,
    );
    return new Map(rows.map((r) => [usageKey(r.capId, r.subscriberId), r.used]));
  }

  async recordHolds(holds: CapHold[], runner: QueryRunner): Promise<void> {
    if (holds.length === 0) return;
    await this.db.exec(
      holdSql.RECORD_HOLDS,
      columnsOf(holds, 'id', 'projectId', 'subscriberId', 'channel', 'topic', 'dueAt'),
      runner,
    );
  }

  purgeOldHolds(limit: number): Promise<number> {
    return this.db.exec(holdSql.PURGE_OLD_HOLDS, [limit]);
  }

  async lockSubscribers(keys: string[], runner: QueryRunner): Promise<void> {
    await this.db.rows(sql.LOCK_SUBSCRIBERS, [keys], runner);
  }

  async recordSends(jobs: CappedJob[], runner: QueryRunner): Promise<void> {
    if (jobs.length === 0) return;
    await this.db.exec(
      sql.RECORD_SENDS,
      columnsOf(jobs, 'id', 'projectId', 'subscriberId', 'channel', 'topic'),
      runner,
    );
  }

  purgeOld(limit: number): Promise<number> {
    return this.db.exec(sql.PURGE_OLD_SENDS, [limit]);
  }
}
