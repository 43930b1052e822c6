import { Injectable, Logger } from '@nestjs/common';
import type { QueryRunner } from 'typeorm';
import type { WebhookEventType } from '../domain/webhook-event-types.js';

/** A change to a job that someone outside the writer announces (outbound webhooks): its data is the job's row, read when the event is queued, plus `extra`. */
export interface JobEvent {
  jobId: string;
  type: WebhookEventType;
  extra?: Record<string, unknown>;
}

/** Queues what it needs inside the writer's transaction; returns how many deliveries it queued. */
export type JobEventListener = (runner: QueryRunner, events: JobEvent[]) => Promise<number>;
/** A project-level event with free-form data, after the write committed. */
export type ProjectEventListener = (
  projectId: string,
  type: WebhookEventType,
  data: Record<string, unknown>,
) => Promise<unknown>;

/**
 * What governance publishes about jobs and subscribers (provider evidence, preference changes)
 * for the modules above it (outbound webhooks) to subscribe to, so governance imports none of
 * them. Job events run inside the writer's transaction: a listener's failure rolls it back, as
 * the outbox it writes must commit with the change. Project events and `committed()` run after
 * the commit: a listener's failure is logged and never fails the write.
 */
@Injectable()
export class EvidenceEvents {
  private readonly logger = new Logger(EvidenceEvents.name);
  private readonly jobListeners: JobEventListener[] = [];
  private readonly projectListeners: ProjectEventListener[] = [];
  private readonly commitListeners: (() => void)[] = [];

  onJobEvents(listener: JobEventListener): void {
    this.jobListeners.push(listener);
  }

  onProjectEvent(listener: ProjectEventListener): void {
    this.projectListeners.push(listener);
  }

  onCommitted(listener: () => void): void {
    this.commitListeners.push(listener);
  }

  /** Inside the transaction that changed the jobs. Returns the deliveries queued by all listeners. */
  async publishJobEvents(runner: QueryRunner, events: JobEvent[]): Promise<number> {
    if (events.length === 0) return 0;
    let queued = 0;
    for (const listener of this.jobListeners) queued += await listener(runner, events);
    return queued;
  }

  async publishProjectEvent(projectId: string, type: WebhookEventType, data: Record<string, unknown>): Promise<void> {
    await Promise.all(
      this.projectListeners.map(async (listener) => {
        try {
          await listener(projectId, type, data);
        } catch (err) {
          this.logger.warn(`${type} not delivered to a listener: ${(err as Error).message}`);
        }
      }),
    );
  }

  /** After the commit of job events that queued something: listeners start their work. */
  committed(): void {
    for (const listener of this.commitListeners) {
      try {
        listener();
      } catch (err) {
        this.logger.warn(`a commit listener failed: ${(err as Error).message}`);
      }
    }
  }
}
