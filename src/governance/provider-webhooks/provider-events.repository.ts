import { Injectable } from '@nestjs/common';
import type { QueryRunner } from 'typeorm';
import { Db } from '../../database/db.js';
import type { EvidenceKind, ProviderEvent } from './provider-event.js';
import * as sql from './sql/provider-events.sql.js';

export interface EvidenceJob {
  id: string;
  projectId: string;
  channel: string;
  recipient: string;
  status: string;
  providerMessageId: string | null;
}

const STAMPS: Partial<Record<EvidenceKind, string>> = {
  delivered: sql.MARK_DELIVERED,
  complained: sql.MARK_COMPLAINED,
  opened: sql.MARK_OPENED,
  clicked: sql.MARK_CLICKED,
};

/** All SQL of provider evidence; every call runs on the caller's transaction. */
@Injectable()
export class ProviderEventsRepository {
  constructor(private readonly db: Db) {}

  /** The job named by id, else the one job holding the message id (none if several share it). */
  async findJob(runner: QueryRunner, jobId: string | null, providerMessageId: string | null): Promise<EvidenceJob | undefined> {
    const rows = await this.db.rows<EvidenceJob & { rank: number }>(sql.FIND_JOB, [jobId, providerMessageId], runner);
    const byMessage = rows.filter((r) => r.rank === 2);
    const found = rows.find((r) => r.rank === 1) ?? (byMessage.length === 1 ? byMessage[0] : undefined);
    const job = found && { id: found.id, projectId: found.projectId, channel: found.channel, recipient: found.recipient, status: found.status, providerMessageId: found.providerMessageId };
    if (job) await this.db.exec(sql.LOCK_JOB, [job.id], runner);
    return job;
  }

  /** true the first time this (provider, event id) is recorded; false for a replay. */
  async insertEvent(runner: QueryRunner, e: ProviderEvent, job: EvidenceJob | undefined): Promise<boolean> {
    const rows = await this.db.rows(
      sql.INSERT_EVENT,
      [e.provider, e.eventId, job?.projectId ?? e.projectId ?? null, job?.id ?? null, e.kind, e.providerType, e.providerMessageId, e.recipients, e.error, e.occurredAt, e.payload],
      runner,
    );
    return rows.length > 0;
  }

  /** Applies the event's effect on the job; true when the job changed (first time only). */
  async applyToJob(runner: QueryRunner, jobId: string, e: ProviderEvent, at: Date): Promise<boolean> {
    if (e.kind === 'bounced') return (await this.db.rows(sql.MARK_BOUNCED, [jobId, at, e.error], runner)).length > 0;
    const stamp = STAMPS[e.kind];
    return stamp ? (await this.db.rows(stamp, [jobId, at], runner)).length > 0 : false;
  }
}
