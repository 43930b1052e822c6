import { Injectable, Logger } from '@nestjs/common';
import { AuditService } from '../audit/audit.service.js';
import { ApiError } from '../common/errors/api-error.js';
import { SegmentsService } from '../governance/segments/segments.service.js';
import type { ProjectRef } from '../projects/project.types.js';
import type { Admission, SkipRule } from './admission/admission.types.js';
import { AdmissionService } from './admission/admission.service.js';
import { contentRequest } from './admission/content-request.js';
import { type BatchPage, BatchesRepository } from './batches.repository.js';
import { newJobIds } from './job-ids.js';
import type { BatchRequestDto, BatchResponseDto } from './dto/batch.dto.js';
import { assertChannelOptions, requestedChannels } from './message-options.js';
import { PRIORITY_NAMES } from '../domain/priority.js';

/** Segment batches log their progress every this many pages (100 000 subscribers at the default page size). */
const PROGRESS_EVERY_PAGES = 20;
/** Skipped pairs listed in an answer (all are counted in skipped_by_reason). */
const SKIPPED_LISTED = 100;
/** Rules counted as jobs_without_address; the other skips are jobs_skipped. */
const WITHOUT_ADDRESS: ReadonlySet<SkipRule> = new Set(['unknown_subscriber', 'no_address']);

/** POST /v1/batch: a fan-out to subscriber ids or a segment, through the admission pipeline. */
@Injectable()
export class BatchService {
  private readonly logger = new Logger(BatchService.name);

  constructor(
    private readonly admission: AdmissionService,
    private readonly audit: AuditService,
    private readonly segments: SegmentsService,
    private readonly batches: BatchesRepository,
  ) {}

  /**
   * `{segment}`: the segment is streamed by keyset pages and each page is queued as a batch of
   * its ids before the next page is read, so memory stays at one page whatever the audience.
   * Counts add up across pages; the audit log gets one entry for the whole send.
   */
  async batch(project: ProjectRef, dto: BatchRequestDto): Promise<BatchResponseDto> {
    if (dto.transactional === true) {
      throw ApiError.badRequest(
        'transactional_not_allowed',
        'transactional is not accepted by /v1/batch: a fan-out must honour opt-outs. Remove it, or send undeclinable messages one by one with POST /v1/send.',
      );
    }
    if ((dto.segment === undefined) === (dto.subscribers === undefined)) {
      throw ApiError.unprocessable(
        'validation_failed',
        'Send either subscribers (a list of ids) or segment (a filter), not both and not neither.',
      );
    }
    const channels = requestedChannels(dto);
    assertChannelOptions(dto, channels);
    // One id per call (a time-ordered UUID, made here): its row first, so that the status is
    // readable while a segment is still being read; every job of the call carries the id.
    const [batchId] = newJobIds(1);
    const total = emptyResult(batchId, channels, dto.topic ?? null);
    const base = contentRequest(
      project,
      dto,
      channels,
      { kind: 'many', subscriberIds: [] },
      { priority: PRIORITY_NAMES.bulk, unconfiguredChannels: 'refuse' },
    );
    await this.batches.insert({
      id: batchId,
      projectId: project.id,
      channels,
      tags: base.payload.tags ?? null,
      topic: dto.topic ?? null,
      priority: base.priority,
      scheduledAt: dto.scheduled_at ? new Date(dto.scheduled_at) : null,
      segment: dto.segment ?? null,
    });
    const queuePage = async (ids: readonly string[], last: boolean) => {
      const admission = await this.admission.admit({
        ...base,
        audience: { kind: 'many', subscriberIds: ids },
        batchId,
      });
      const page = addPage(total, admission, new Set(ids).size);
      total.topic = admission.topic;
      await this.batches.addPage(batchId, { ...page, topic: admission.topic }, last);
    };
    try {
      await this.queueAll(project, dto, batchId, total, queuePage);
    } catch (error) {
      // A call refused before any job was queued (a template or channel problem) leaves no batch.
      if (total.jobs_created === 0 && total.jobs_deduplicated === 0) await this.batches.delete(batchId);
      throw error;
    }
    await this.audit.record({
      projectId: project.id,
      actor: 'api_key',
      action: 'batch.queued',
      metadata: {
        batch_id: batchId,
        channels,
        ...(dto.segment ? { segment: dto.segment } : {}),
        subscribers: total.subscribers,
        created: total.jobs_created,
      },
    });
    return total;
  }

  /** The subscribers in one page, or the segment page by page; the last page completes the batch row. */
  private async queueAll(
    project: ProjectRef,
    dto: BatchRequestDto,
    batchId: string,
    total: BatchResponseDto,
    queuePage: (ids: readonly string[], last: boolean) => Promise<void>,
  ): Promise<void> {
    if (dto.segment === undefined) {
      await queuePage(dto.subscribers!, true);
    } else {
      const started = Date.now();
      let pages = 0;
      const progress = () =>
        `segment batch of project ${project.id}: ${total.subscribers} subscribers read in ${pages} pages, ${total.jobs_created} jobs queued, ${total.jobs_skipped} skipped, ${((Date.now() - started) / 1000).toFixed(1)} s`;
      for await (const ids of this.segments.pages(project.id, dto.segment)) {
        await queuePage(ids, false);
        // A large audience holds the request for a while: the log shows how far it got.
        if (++pages % PROGRESS_EVERY_PAGES === 0) this.logger.log(progress());
      }
      if (pages >= PROGRESS_EVERY_PAGES) this.logger.log(`${progress()} (done)`);
      await this.batches.complete(batchId);
    }
  }
}

function emptyResult(batchId: string, channels: string[], topic: string | null): BatchResponseDto {
  return {
    success: true,
    batch_id: batchId,
    jobs_created: 0,
    jobs_deduplicated: 0,
    jobs_skipped: 0,
    jobs_without_address: 0,
    subscribers: 0,
    channels,
    topic,
    skipped_by_reason: {},
    skipped: [],
  };
}

/** Adds one page's admission to the answer; returns the page's own counts (for the batch row). */
function addPage(total: BatchResponseDto, admission: Admission, subscribers: number): Omit<BatchPage, 'topic'> {
  let queued = 0;
  const skippedByReason: Record<string, number> = {};
  for (const t of admission.targets) {
    if (!t.skip) {
      queued++;
      continue;
    }
    total.skipped_by_reason[t.skip.rule] = (total.skipped_by_reason[t.skip.rule] ?? 0) + 1;
    skippedByReason[t.skip.rule] = (skippedByReason[t.skip.rule] ?? 0) + 1;
    if (WITHOUT_ADDRESS.has(t.skip.rule)) total.jobs_without_address++;
    else total.jobs_skipped++;
    if (total.skipped.length < SKIPPED_LISTED)
      total.skipped.push({ subscriber_id: t.subscriberId!, channel: t.channel, reason: t.skip.reason });
  }
  total.jobs_created += admission.created;
  total.jobs_deduplicated += queued - admission.created;
  total.subscribers += subscribers;
  return { subscribers, created: admission.created, deduplicated: queued - admission.created, skippedByReason };
}
