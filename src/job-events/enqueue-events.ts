import { Injectable, Logger } from '@nestjs/common';

/** Someone who wants to know about newly queued jobs (outbound webhooks: `job.queued`). */
export interface QueuedListener {
  /**
   * Whether this listener needs the ids of the jobs a /v1/batch call of this project creates.
   * A batch returns only a count unless someone asks: 5 000 ids cost more than the insert.
   */
  wantsIds(projectId: string): Promise<boolean>;
  /** Jobs just created (committed), not those an idempotency key deduplicated. */
  queued(projectId: string, jobIds: string[]): Promise<void>;
}

/**
 * The seam after enqueue, as DeliveryEvents is after finalisation: listeners subscribe here
 * instead of editing the enqueue services. A listener's failure is logged and never fails the
 * request (the jobs are queued already).
 */
@Injectable()
export class EnqueueEvents {
  private readonly logger = new Logger(EnqueueEvents.name);
  private readonly listeners: QueuedListener[] = [];

  onQueued(listener: QueuedListener): void {
    this.listeners.push(listener);
  }

  async wantsIds(projectId: string): Promise<boolean> {
    const answers = await Promise.all(this.listeners.map((l) => l.wantsIds(projectId).catch(() => true)));
    return answers.some(Boolean);
  }

  async emitQueued(projectId: string, jobIds: string[]): Promise<void> {
    if (this.listeners.length === 0 || jobIds.length === 0) return;
    await Promise.all(
      this.listeners.map(async (listener) => {
        try {
          await listener.queued(projectId, jobIds);
        } catch (err) {
          this.logger.warn(`an enqueue listener failed: ${(err as Error).message}`);
        }
      }),
    );
  }
}
