import { Injectable } from '@nestjs/common';
import { Db } from '../database/db.js';
import * as sql from './sql/audit.sql.js';

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
}

export interface AuditRow {
  id: string;
  project_id: string | null;
  actor: string;
  action: string;
  resource: string | null;
  metadata: Record<string, unknown>;
  ip: string | null;
  created_at: Date;
}

@Injectable()
export class AuditRepository {
  constructor(private readonly db: Db) {}

  list(f: AuditFilter): Promise<AuditRow[]> {
    return this.db.rows<AuditRow>(sql.LIST_AUDIT, [
      f.actor ?? null,
      f.action ?? null,
      f.target ?? null,
      f.projectId ?? null,
      f.since?.toISOString() ?? null,
      f.until?.toISOString() ?? null,
      f.beforeId ?? null,
      f.limit,
    ]);
  }
}
