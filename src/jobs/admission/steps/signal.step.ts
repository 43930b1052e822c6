import { Injectable } from '@nestjs/common';
import { EnqueueEvents } from '../../../job-events/enqueue-events.js';
import { WorkerWakeup } from '../../worker/worker-wakeup.js';
import type { AdmissionRequest, Target } from '../admission.types.js';
import type { Inserted } from './insert.step.js';

/**
 * After the commit: tell the enqueue listeners (job.queued webhooks) about the new jobs, and
 * wake a worker when one is due now (batched NOTIFY after commit, never inside the insert).
 */
@Injectable()
export class SignalStep {
  constructor(
    private readonly events: EnqueueEvents,
    private readonly wakeup: WorkerWakeup,
  ) {}

  /** Whether a fan-out must return its jobs' ids (someone listens): asked early, while the other steps run. */
  wantsIds(request: AdmissionRequest): Promise<boolean> {
    return request.audience.kind === 'one' ? Promise.resolve(true) : this.events.wantsIds(request.project.id);
  }

  async apply(request: AdmissionRequest, targets: readonly Target[], inserted: Inserted): Promise<void> {
    if (inserted.createdIds?.length) await this.events.emitQueued(request.project.id, inserted.createdIds);
    if (inserted.created === 0) return;
    let firstDue = Infinity;
    const channels = new Set<Target['channel']>();
    for (const t of targets) {
      if (t.skip) continue;
      firstDue = Math.min(firstDue, t.scheduledAt.getTime());
      channels.add(t.channel);
    }
    if (channels.size) this.wakeup.queued(new Date(firstDue), [...channels]);
  }
}
