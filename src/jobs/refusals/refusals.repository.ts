import { Injectable } from '@nestjs/common';
import { Db } from '../../database/db.js';
import * as sql from './refusals.sql.js';
import { columnsOf } from '../../database/columns.js';

/** One refused recipient × channel as admission recorded it (send_refusals). */
export interface SendRefusal {
  id: string;
  projectId: string;
  createdAt: Date;
  channel: string;
  /** '' when the target had no address (no_address, unknown_subscriber). */
  recipient: string;
  subscriberId: string | null;
  rule: string;
  detail: string;
  batchId: string | null;
  createdBy: string | null;
}

export interface NewRefusal {
  channel: string;
  recipient: string;
  subscriberId: string | null;
  rule: string;
  detail: string;
}

export interface RefusalSearch {
  /** null: every project (operators). */
  projectId: string | null;
  /** Addresses, compared case-insensitively. */
  addresses: readonly string[];
  subscriberIds: readonly string[];
  since: Date;
  until: Date;
  limit: number;
}

/** All SQL of send_refusals. */
@Injectable()
export class RefusalsRepository {
  constructor(private readonly db: Db) {}

  async insert(
    projectId: string,
    refusals: readonly NewRefusal[],
    batchId: string | null,
    createdBy: string | null,
  ): Promise<void> {
    await this.db.exec(sql.INSERT_REFUSALS, [
      projectId,
      ...columnsOf(refusals, 'channel', 'recipient', 'subscriberId', 'rule', 'detail'),
      batchId,
      createdBy,
    ]);
  }

  search(q: RefusalSearch): Promise<SendRefusal[]> {
    return this.db.rows<SendRefusal>(sql.TRACE_REFUSALS, [
      q.projectId,
      q.addresses.map((a) => a.toLowerCase()),
      q.subscriberIds,
      q.since,
      q.until,
      q.limit,
    ]);
  }

  /** Deletes at most `limit` refusals older than `before`; returns how many. */
  purge(before: Date, limit: number): Promise<number> {
    return this.db.exec(sql.PURGE_REFUSALS, [before, limit]);
  }
}
