import { Injectable, Logger } from '@nestjs/common';
import { RefusalsRepository } from '../../refusals/refusals.repository.js';
import type { AdmissionRequest, Target } from '../admission.types.js';

/** Refusals one request records at most (a fan-out page larger than this keeps the first ones; the batch row counts them all). */
export const MAX_REFUSALS_PER_REQUEST = 10_000;
/** Stored lengths: an address the channel could not take may be anything the caller sent. */
const MAX_RECIPIENT = 320;
const MAX_DETAIL = 500;

/**
 * After the insert: the targets no rule let through leave a trace (send_refusals), so that
 * "why didn't they get it?" can answer for a send that made no job. One statement per request
 * that refused something and none otherwise, so the hot path of a send that queues everything
 * pays a filter over its targets. A failure to record is logged and never fails the send: the
 * jobs are already queued, and a caller told "error" would send them again.
 */
@Injectable()
export class RefusalsStep {
  private readonly logger = new Logger(RefusalsStep.name);

  constructor(private readonly refusals: RefusalsRepository) {}

  async apply(request: AdmissionRequest, targets: readonly Target[]): Promise<void> {
    const refused: Target[] = [];
    for (const t of targets) if (t.skip) refused.push(t);
    if (refused.length === 0) return;
    const rows = refused.slice(0, MAX_REFUSALS_PER_REQUEST).map((t) => ({
      channel: t.channel,
      recipient: t.recipient.slice(0, MAX_RECIPIENT),
      subscriberId: t.subscriberId,
      rule: t.skip!.rule,
      detail: t.skip!.reason.slice(0, MAX_DETAIL),
    }));
    try {
      await this.refusals.insert(request.project.id, rows, request.batchId ?? null, request.project.createdBy ?? null);
    } catch (err) {
      this.logger.warn(
        `could not record ${rows.length} refused send(s) of project ${request.project.id} for the trace: ${(err as Error).message}`,
      );
    }
  }
}
