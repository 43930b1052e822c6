import { Injectable } from '@nestjs/common';
import { Db } from '../database/db.js';
import * as sql from './sql/audit.sql.js';
import type { AuditEntryDto } from './dto/audit.dto.js';

export interface AuditFilter {
  actor?: string;
  action?: string;
  target?: string;
  projectId?: string;
  since?: Date;
  until?: Date;
  /** Only entries older than this id. */
  beforeId?: string;
  limit: number;
  /** Rows skipped first (notifyd 0.x's deprecated offset paging). */
  offset?: number;
}

/** An audit line as read: the entry the API returns, with its time still a Date. */
export type AuditRow = Omit<AuditEntryDto, 'created_at'> & { created_at: Date };

/** $1–$6 of LIST_AUDIT and COUNT_AUDIT: the filters, null where the caller set none. */
function filterParams(f: Omit<AuditFilter, 'beforeId' | 'limit' | 'offset'>): (string | null)[] {
  return [
    f.actor ?? null,
    f.action ?? null,
    f.target ?? null,
    f.projectId ?? null,
    f.since?.toISOString() ?? null,
    f.until?.toISOString() ?? null,
  ];
}

@Injectable()
export class AuditRepository {
  constructor(private readonly db: Db) {}

  list(f: AuditFilter): Promise<AuditRow[]> {
    return this.db.rows<AuditRow>(sql.LIST_AUDIT, [...filterParams(f), f.beforeId ?? null, f.limit, f.offset ?? 0]);
  }

  /** How many lines match the filters (cursor, limit and offset aside): 0.x's `total`. */
  async count(f: Omit<AuditFilter, 'beforeId' | 'limit' | 'offset'>): Promise<number> {
    const row = await this.db.one<{ total: number }>(sql.COUNT_AUDIT, filterParams(f));
    return row!.total;
  }
}
