import { Injectable } from '@nestjs/common';
import { ApiError } from '../common/errors/api-error.js';
import { BatchesRepository, type BatchRow } from './batches.repository.js';
import type { BatchJobCountsDto, BatchStatusDto } from './dto/batch.dto.js';
import { isUuid } from '../domain/ids.js';

/** GET /v1/batches/:id: what a batch call queued and skipped, and where its jobs are now. */
@Injectable()
export class BatchStatusService {
  constructor(private readonly batches: BatchesRepository) {}

  /** `projectId` null: an operator, any project. */
  async status(id: string, projectId: string | null): Promise<BatchStatusDto> {
    if (!isUuid(id))
      throw ApiError.badRequest(
        'invalid_id',
        `'${id.slice(0, 60)}' is not a batch id: use the batch_id of a POST /v1/batch answer (a UUID).`,
      );
    const batch = await this.batches.find(id, projectId);
    if (!batch) throw ApiError.notFound('Batch', id);
    return presentBatch(batch, await this.batches.jobCounts(id));
  }
}

export function presentBatch(b: BatchRow, byStatus: Record<string, number>): BatchStatusDto {
  const n = (status: string) => byStatus[status] ?? 0;
  const jobs: BatchJobCountsDto = {
    queued: n('pending') + n('retry'),
    processing: n('processing'),
    sent: n('sent'),
    failed: n('failed'),
    bounced: n('bounced'),
    cancelled: n('cancelled'),
  };
  return {
    id: b.id,
    created_at: b.createdAt.toISOString(),
    completed_at: b.completedAt?.toISOString() ?? null,
    channels: b.channels,
    tags: b.tags ?? [],
    topic: b.topic,
    priority: b.priority,
    scheduled_at: b.scheduledAt?.toISOString() ?? null,
    segment: b.segment,
    subscribers: b.subscribers,
    jobs_created: b.jobsCreated,
    jobs_deduplicated: b.jobsDeduplicated,
    skipped_by_reason: b.skippedByReason,
    jobs,
  };
}
