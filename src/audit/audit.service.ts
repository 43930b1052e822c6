import { Injectable, Logger } from '@nestjs/common';
import { DataSource, type QueryRunner } from 'typeorm';
import { AUDIT_INSERT } from './sql/audit.sql.js';

function auditParams(entry: AuditEntry): unknown[] {
  return [
    entry.projectId ?? null,
    entry.actor,
    entry.action,
    entry.resource ?? null,
    entry.metadata ?? {},
    entry.ip ?? null,
  ];
}

export interface AuditEntry {
  projectId?: string | null;
  /** Who acted: `api_key`, `admin`, `readonly`, `mcp`, `system`, a provider webhook… */
  actor: string;
  /** What happened, dotted: `project.created`, `job.cancelled`… */
  action: string;
  resource?: string | null;
  /** Names and ids only: never message bodies, recipients or secrets. */
  metadata?: Record<string, unknown>;
  ip?: string | null;
}

/** Writes the audit trail of state changes. */
@Injectable()
export class AuditService {
  private readonly logger = new Logger(AuditService.name);

  constructor(private readonly dataSource: DataSource) {}

  /**
   * `runner` writes the line inside the caller's transaction (the change and its audit line
   * commit together); a failure then propagates, since swallowing it would abort the transaction.
   */
  async record(entry: AuditEntry, runner?: QueryRunner): Promise<void> {
    if (runner) {
      await runner.query(AUDIT_INSERT, auditParams(entry));
      return;
    }
    try {
      await this.dataSource.query(AUDIT_INSERT, auditParams(entry));
    } catch (err) {
      // The change itself already happened; losing its audit line must not turn it into an error.
      this.logger.warn(`audit write failed for ${entry.action}: ${(err as Error).message}`);
    }
  }
}
