import { Injectable } from '@nestjs/common';
import type { QueryRunner } from 'typeorm';
import { Db, sqlState } from '../database/db.js';
import type { CoalescedRow } from './admission/insert-batcher.js';
import { newJobIdsLiteral } from './job-ids.js';
import type { JobAttempt, JobPayload, JobProviderEvent, JobRow, NewJob } from '../domain/job.types.js';
import * as insertSql from './sql/insert.sql.js';
import * as querySql from './sql/queries.sql.js';
import { columnsOf } from '../database/columns.js';

/** Options shared by every job of one insert. */
export interface InsertOptions {
  projectId: string;
  payload: JobPayload;
  priority: number;
  maxAttempts: number;
  templateId: string | null;
  topic: string | null;
  /** Who queued the jobs: the project key's hint, or the operator caller (jobs.created_by). */
  createdBy: string | null;
  /** The /v1/batch call the jobs belong to (GET /v1/batches/:id counts them); null for other doors. */
  batchId?: string | null;
}

export interface HeldKey {
  id: string;
  channel: string;
  idempotencyKey: string;
  status: string;
}

export interface JobSearch {
  projectId?: string;
  status?: string;
  channel?: string;
  recipient?: string;
  /** The recipient's domain (the part after @), case-insensitive. */
  recipientDomain?: string;
  topic?: string;
  /** jobs.created_by: a key hint (`sk_shop_…1f2e`), admin, mcp or workflow. */
  createdBy?: string;
  since: Date;
  limit: number;
  /** Rows strictly older than this (created_at text as the database wrote it, id). */
  after?: { createdAt: string; id: string };
}

/** $1–$6 of every job insert: the values all rows of one insert share. */
const sharedParams = (o: InsertOptions): unknown[] => [
  o.projectId,
  o.payload,
  o.priority,
  o.maxAttempts,
  o.templateId,
  o.topic,
];

/** All SQL of the jobs API (the worker's statements live in worker/). */
@Injectable()
export class JobsRepository {
  constructor(private readonly db: Db) {}

  private insertParams(options: InsertOptions, jobs: readonly NewJob[]): unknown[] {
    // A batch shares one Date object: format it once, not once per row.
    const iso = new Map<Date, string>();
    const at = (d: Date) => iso.get(d) ?? iso.set(d, d.toISOString()).get(d)!;
    return [
      ...sharedParams(options),
      jobs.map((j) => j.channel),
      jobs.map((j) => j.subscriberId),
      jobs.map((j) => j.recipient),
      jobs.map((j) => at(j.scheduledAt)),
      jobs.map((j) => j.idempotencyKey),
      jobs.map((j) => j.runAt?.toISOString() ?? null),
      newJobIdsLiteral(jobs.length),
      options.createdBy,
      options.batchId ?? null,
    ];
  }

  /**
   * A keyless insert: the uniform statement when every row shares its channel and send time
   * and none has its own run_at (one value instead of a 5 000-element array per such column),
   * the general one otherwise.
   */
  private unkeyedInsert(options: InsertOptions, jobs: readonly NewJob[], returningIds: boolean): [string, unknown[]] {
    const [first] = jobs;
    const uniform = jobs.every(
      (j) => j.channel === first.channel && j.scheduledAt.getTime() === first.scheduledAt.getTime() && !j.runAt,
    );
    if (!uniform)
      return [
        returningIds ? insertSql.INSERT_UNKEYED_JOBS_IDS : insertSql.INSERT_UNKEYED_JOBS,
        this.insertParams(options, jobs),
      ];
    return [
      returningIds ? insertSql.INSERT_UNIFORM_JOBS_IDS : insertSql.INSERT_UNIFORM_JOBS,
      [
        ...sharedParams(options),
        first.channel,
        first.scheduledAt.toISOString(),
        jobs.map((j) => j.subscriberId),
        jobs.map((j) => j.recipient),
        newJobIdsLiteral(jobs.length),
        options.createdBy,
        options.batchId ?? null,
      ],
    ];
  }

  /** Inserts jobs and returns the ids of those created. */
  async insertIds(options: InsertOptions, jobs: readonly NewJob[]): Promise<string[]> {
    if (jobs.length === 0) return [];
    if (jobs.some((j) => j.idempotencyKey !== null))
      return (await this.db.rows<{ id: string }>(insertSql.INSERT_JOBS_IDS, this.insertParams(options, jobs))).map(
        (r) => r.id,
      );
    const [sql, params] = this.unkeyedInsert(options, jobs, true);
    return (await this.db.rows<{ id: string }>(sql, params)).map((r) => r.id);
  }

  /** Inserts jobs and returns how many were created. */
  async insertCount(options: InsertOptions, jobs: readonly NewJob[]): Promise<number> {
    if (jobs.length === 0) return 0;
    if (!jobs.some((j) => j.idempotencyKey !== null)) return this.db.exec(...this.unkeyedInsert(options, jobs, false));
    const row = await this.db.one<{ created: number }>(insertSql.INSERT_JOBS_COUNT, this.insertParams(options, jobs));
    return row?.created ?? 0;
  }

  /** Inserts rows that each carry all their columns (one or several requests'); returns the ids inserted (a held key skips its row). */
  async insertRows(rows: readonly CoalescedRow[], runner?: QueryRunner): Promise<Set<string>> {
    const inserted = await this.db.rows<{ id: string }>(
      insertSql.INSERT_COALESCED_JOBS,
      columnsOf(
        rows,
        'projectId',
        'payloadJson',
        'priority',
        'maxAttempts',
        'templateId',
        'topic',
        'channel',
        'subscriberId',
        'recipient',
        'scheduledAt',
        'idempotencyKey',
        'runAt',
        'id',
        'createdBy',
      ),
      runner,
    );
    return new Set(inserted.map((r) => r.id));
  }

  findHeldKeys(projectId: string, keys: string[], runner?: QueryRunner): Promise<HeldKey[]> {
    return this.db.rows<HeldKey>(insertSql.FIND_BY_IDEMPOTENCY_KEYS, [projectId, keys], runner);
  }

  /** $projectId null = any project (operators). */
  providerEvents(jobId: string): Promise<JobProviderEvent[]> {
    return this.db.rows<JobProviderEvent>(querySql.JOB_PROVIDER_EVENTS, [jobId]);
  }

  attempts(jobId: string): Promise<JobAttempt[]> {
    return this.db.rows<JobAttempt>(querySql.JOB_ATTEMPTS, [jobId]);
  }

  find(id: string, projectId: string | null): Promise<JobRow | undefined> {
    return this.db.one<JobRow>(querySql.FIND_JOB, [id, projectId]);
  }

  async cancel(id: string, projectId: string | null): Promise<boolean> {
    return (await this.db.exec(querySql.CANCEL_JOB, [id, projectId])) > 0;
  }

  /** Re-queues a failed/cancelled job; 'key_taken' when its idempotency key was reused meanwhile. */
  async retry(
    id: string,
    projectId: string | null,
  ): Promise<{ id: string; projectId: string; channel: string; status: string } | 'key_taken' | undefined> {
    try {
      return await this.db.one(querySql.RETRY_JOB, [id, projectId]);
    } catch (err) {
      if (sqlState(err) === '23505') return 'key_taken';
      throw err;
    }
  }

  search(q: JobSearch): Promise<(JobRow & { createdKey: string })[]> {
    return this.db.rows<JobRow & { createdKey: string }>(querySql.SEARCH_JOBS, [
      q.projectId ?? null,
      q.status ?? null,
      q.channel ?? null,
      q.recipient ?? null,
      q.topic ?? null,
      q.since,
      q.limit,
      q.recipientDomain ?? null,
      q.createdBy ?? null,
      q.after?.createdAt ?? null,
      q.after?.id ?? null,
    ]);
  }
}
