import { Inject, Injectable } from '@nestjs/common';
import type { QueryRunner } from 'typeorm';
import type { AppConfig } from '../../../config/app-config.js';
import { APP_CONFIG } from '../../../config/config.module.js';
import { ApiError } from '../../../common/errors/api-error.js';
import type { CappedJob, RecipientCap } from '../../../governance/caps/cap-rules.js';
import { CapsService } from '../../../governance/caps/caps.service.js';
import { newJobIds } from '../../job-ids.js';
import type { NewJob } from '../../../domain/job.types.js';
import { type InsertOptions, JobsRepository } from '../../jobs.repository.js';
import type { AdmissionRequest, Target } from '../admission.types.js';
import { type CoalescedRow, InsertBatcher } from '../insert-batcher.js';

/** How many times an idempotent send tries again when the key's holder changes under it. */
const IDEMPOTENCY_ROUNDS = 3;
/** Rows of one coalesced statement at most (a few hundred single sends). */
const COALESCE_MAX_ROWS = 500;

/** What the insert did: how many jobs it created, and their ids when they are known (single sends; fan-outs when someone wants them). */
export interface Inserted {
  created: number;
  createdIds?: string[];
}

/**
 * The last rule and the insert, in one transaction when they must be: per-recipient caps. A
 * single send holds its cap slot under the subscriber's lock together with its insert (two
 * sends to one person see each other); a fan-out checks its caps unlocked and the worker's
 * check counts. Idempotency keys: a key already held deduplicates its job (the holder's id is
 * answered). Single sends without a cap share statements with concurrent ones (InsertBatcher).
 */
@Injectable()
export class InsertStep {
  private readonly batcher: InsertBatcher | undefined;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly jobs: JobsRepository,
    private readonly caps: CapsService,
  ) {
    const inFlight = config.worker.enqueueInsertsInFlight;
    this.batcher =
      inFlight > 0 ? new InsertBatcher((rows) => this.jobs.insertRows(rows), inFlight, COALESCE_MAX_ROWS) : undefined;
  }

  async apply(
    request: AdmissionRequest,
    targets: readonly Target[],
    caps: readonly RecipientCap[],
    wantsIds: Promise<boolean>,
  ): Promise<Inserted> {
    const live = targets.filter((t) => !t.skip);
    if (live.length === 0) return { created: 0, createdIds: [] };
    const options: InsertOptions = {
      projectId: request.project.id,
      payload: request.payload,
      priority: request.priority,
      maxAttempts: this.config.worker.maxAttempts,
      templateId: request.templateId,
      topic: request.topic,
      createdBy: request.project.createdBy ?? null,
      batchId: request.batchId ?? null,
    };
    return request.audience.kind === 'one'
      ? this.insertOne(options, live, caps)
      : this.insertMany(options, live, caps, wantsIds);
  }

  private async insertOne(options: InsertOptions, live: Target[], caps: readonly RecipientCap[]): Promise<Inserted> {
    const { over } = await this.caps.enqueueUnderCaps(
      options.projectId,
      cappedJobs(options, live),
      live[0].scheduledAt,
      live.flatMap((t) => (t.idempotencyKey ? [t.idempotencyKey] : [])),
      async (admitted, runner) => {
        const admittedTargets = live.filter((_, i) => admitted.has(String(i)));
        await this.insertIdempotent(options, admittedTargets, runner);
        const created = new Map(
          live.flatMap((t, i) => (t.jobId && !t.deduplicated ? [[String(i), t.jobId] as const] : [])),
        );
        return { value: undefined, created };
      },
      caps,
    );
    for (const [i, reason] of over) live[Number(i)].skip = { rule: 'capped', reason };
    const createdIds = live.flatMap((t) => (t.jobId && !t.deduplicated ? [t.jobId] : []));
    return { created: createdIds.length, createdIds };
  }

  /**
   * Inserts the targets; for keys already held, takes the holders' ids instead. A holder can
   * turn failed/cancelled between the insert and the lookup (freeing the key), so the rest are
   * tried again a few times before giving up with 409.
   */
  private async insertIdempotent(options: InsertOptions, targets: Target[], runner?: QueryRunner): Promise<void> {
    const payloadJson = JSON.stringify(options.payload);
    let remaining = targets;
    for (let round = 0; round < IDEMPOTENCY_ROUNDS && remaining.length; round++) {
      const ids = newJobIds(remaining.length);
      const rows = remaining.map((t, i) => toRow(options, payloadJson, t, ids[i]));
      const inserted =
        runner || !this.batcher ? await this.jobs.insertRows(rows, runner) : await this.batcher.submit(rows);
      remaining.forEach((t, i) => {
        if (inserted.has(ids[i])) t.jobId = ids[i];
      });
      remaining = remaining.filter((t) => !t.jobId);
      if (remaining.length === 0) return;
      const held = await this.jobs.findHeldKeys(
        options.projectId,
        remaining.map((t) => t.idempotencyKey!),
        runner,
      );
      const byKey = new Map(held.map((h) => [h.idempotencyKey, h.id]));
      for (const t of remaining) {
        const id = byKey.get(t.idempotencyKey!);
        if (id) {
          t.jobId = id;
          t.deduplicated = true;
        }
      }
      remaining = remaining.filter((t) => !t.jobId);
    }
    if (remaining.length) {
      throw ApiError.conflict(
        'idempotency_contention',
        'Another request with this idempotency key is changing state right now; retry the request.',
      );
    }
  }

  private async insertMany(
    options: InsertOptions,
    live: Target[],
    caps: readonly RecipientCap[],
    wantsIds: Promise<boolean>,
  ): Promise<Inserted> {
    if (caps.length) {
      const over = await this.caps.overCap(options.projectId, cappedJobs(options, live), caps);
      for (const [i, reason] of over) live[Number(i)].skip = { rule: 'capped', reason };
    }
    const rows: NewJob[] = live
      .filter((t) => !t.skip)
      .map((t) => ({
        channel: t.channel,
        recipient: t.recipient,
        subscriberId: t.subscriberId,
        scheduledAt: t.scheduledAt,
        idempotencyKey: t.idempotencyKey,
        runAt: t.runAt,
      }));
    if (rows.length === 0) return { created: 0, createdIds: [] };
    if (await wantsIds) {
      // Someone listens for job.queued: return the new ids (costlier than a count).
      const createdIds = await this.jobs.insertIds(options, rows);
      return { created: createdIds.length, createdIds };
    }
    return { created: await this.jobs.insertCount(options, rows) };
  }
}

/** The targets as the cap rules see them, each under its index (the caps answer by that id). */
function cappedJobs(options: InsertOptions, live: Target[]): CappedJob[] {
  return live.map((t, i) => ({
    id: String(i),
    projectId: options.projectId,
    subscriberId: t.subscriberId,
    channel: t.channel,
    topic: options.topic,
  }));
}

function toRow(options: InsertOptions, payloadJson: string, t: Target, id: string): CoalescedRow {
  return {
    id,
    projectId: options.projectId,
    payloadJson,
    priority: options.priority,
    maxAttempts: options.maxAttempts,
    templateId: options.templateId,
    topic: options.topic,
    channel: t.channel,
    subscriberId: t.subscriberId,
    recipient: t.recipient,
    scheduledAt: t.scheduledAt.toISOString(),
    runAt: t.runAt?.toISOString() ?? null,
    idempotencyKey: t.idempotencyKey,
    createdBy: options.createdBy,
  };
}
