import { Injectable, Logger } from '@nestjs/common';
import { AuditService } from '../audit/audit.service.js';
import { ApiError } from '../common/errors/api-error.js';
import { SegmentsService } from '../governance/segments/segments.service.js';
import type { ProjectRef } from '../projects/project.types.js';
import type { Admission, SkipRule } from './admission/admission.types.js';
import { AdmissionService } from './admission/admission.service.js';
import { contentRequest } from './admission/content-request.js';
import type { BatchRequestDto, BatchResponseDto } from './dto/batch.dto.js';
import { assertChannelOptions, requestedChannels } from './message-options.js';
import { PRIORITY_NAMES } from './priority.js';

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
      throw ApiError.unprocessable('validation_failed', 'Send either subscribers (a list of ids) or segment (a filter), not both and not neither.');
    }
    const channels = requestedChannels(dto);
    assertChannelOptions(dto, channels);
    const total = emptyResult(channels, dto.topic ?? null);
    const queuePage = async (ids: readonly string[]) => {
      const request = contentRequest(project, dto, channels, { kind: 'many', subscriberIds: ids }, { priority: PRIORITY_NAMES.bulk, unconfiguredChannels: 'refuse' });
      const admission = await this.admission.admit(request);
      addPage(total, admission, new Set(ids).size);
      total.topic = admission.topic;
    };
    if (dto.segment === undefined) {
      await queuePage(dto.subscribers!);
    } else {
      const started = Date.now();
      let pages = 0;
      const progress = () =>
        `segment batch of project ${project.id}: ${total.subscribers} subscribers read in ${pages} pages, ${total.jobs_created} jobs queued, ${total.jobs_skipped} skipped, ${((Date.now() - started) / 1000).toFixed(1)} s`;
      for await (const ids of this.segments.pages(project.id, dto.segment)) {
        await queuePage(ids);
        // A large audience holds the request for a while: the log shows how far it got.
        if (++pages % PROGRESS_EVERY_PAGES === 0) this.logger.log(progress());
      }
      if (pages >= PROGRESS_EVERY_PAGES) this.logger.log(`${progress()} (done)`);
    }
    await this.audit.record({
      projectId: project.id,
      actor: 'api_key',
      action: 'batch.queued',
      metadata: { channels, ...(dto.segment ? { segment: dto.segment } : {}), subscribers: total.subscribers, created: total.jobs_created },
    });
    return total;
  }
}

function emptyResult(channels: string[], topic: string | null): BatchResponseDto {
  return {
    success: true,
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

/** Adds one page's admission to the answer. */
function addPage(total: BatchResponseDto, admission: Admission, subscribers: number): void {
  let queued = 0;
  for (const t of admission.targets) {
    if (!t.skip) {
      queued++;
      continue;
    }
    total.skipped_by_reason[t.skip.rule] = (total.skipped_by_reason[t.skip.rule] ?? 0) + 1;
    if (WITHOUT_ADDRESS.has(t.skip.rule)) total.jobs_without_address++;
    else total.jobs_skipped++;
    if (total.skipped.length < SKIPPED_LISTED) total.skipped.push({ subscriber_id: t.subscriberId!, channel: t.channel, reason: t.skip.reason });
  }
  total.jobs_created += admission.created;
  total.jobs_deduplicated += queued - admission.created;
  total.subscribers += subscribers;
}
