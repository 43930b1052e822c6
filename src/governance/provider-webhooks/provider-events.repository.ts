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

  /**
   * The job an event is about, decided by the provider's message id. A job id the event carries
   * (tag, metadata, custom arg, callback URL) is a hint only: it is taken when that job holds
   * this message id (it picks among the jobs of one batch call, which share it), or has none yet
   * and is still live (the provider reported before the worker recorded the id, or the call's
   * answer was lost and the job waits for its retry). Otherwise the one job holding the message
   * id; none when several do (ambiguous) or the event names a project (the URL's) the job is not in.
   */
  async findJob(
    runner: QueryRunner,
    event: Pick<ProviderEvent, 'jobId' | 'providerMessageId' | 'projectId'>,
  ): Promise<EvidenceJob | undefined> {
    const rows = await this.db.rows<EvidenceJob & { rank: number }>(
      sql.FIND_JOB,
      [event.jobId, event.providerMessageId],
      runner,
    );
    const hinted = rows.find((r) => r.rank === 1 && hintHolds(r, event.providerMessageId));
    const byMessage = rows.filter((r) => r.rank === 2);
    const found = hinted ?? (byMessage.length === 1 ? byMessage[0] : undefined);
    if (!found || (event.projectId !== undefined && found.projectId !== event.projectId)) return undefined;
    const job = {
      id: found.id,
      projectId: found.projectId,
      channel: found.channel,
      recipient: found.recipient,
      status: found.status,
      providerMessageId: found.providerMessageId,
    };
    await this.db.exec(sql.LOCK_JOB, [job.id], runner);
    return job;
  }

  /** true the first time this (provider, event id) is recorded; false for a replay. */
  async insertEvent(runner: QueryRunner, e: ProviderEvent, job: EvidenceJob | undefined): Promise<boolean> {
    const rows = await this.db.rows(
      sql.INSERT_EVENT,
      [
        e.provider,
        e.eventId,
        job?.projectId ?? e.projectId ?? null,
        job?.id ?? null,
        e.kind,
        e.providerType,
        e.providerMessageId,
        e.recipients,
        e.error,
        e.occurredAt,
        e.payload,
      ],
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

/** Statuses of a job whose provider call may have happened without its message id being recorded yet. */
const LIVE = new Set(['pending', 'processing', 'retry']);

/** Whether the job a hint names may be the event's: it holds the event's message id, or has none yet and is live. */
function hintHolds(job: EvidenceJob, providerMessageId: string | null): boolean {
  return job.providerMessageId === null ? LIVE.has(job.status) : job.providerMessageId === providerMessageId;
}
