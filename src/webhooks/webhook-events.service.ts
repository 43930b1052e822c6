import { Injectable, type OnModuleInit } from '@nestjs/common';
import type { QueryRunner } from 'typeorm';
import { maskRecipient } from '../common/pii/mask.js';
import type { SuppressionRow } from '../governance/suppressions/suppression.types.js';
import { SuppressionsService } from '../governance/suppressions/suppressions.service.js';
import { EnqueueEvents } from '../job-events/enqueue-events.js';
import { EvidenceEvents, type JobEvent } from '../job-events/evidence-events.js';
import { DeliveryEvents } from '../jobs/worker/delivery-events.js';
import type { Outcomes } from '../jobs/worker/outcomes.js';
import { WebhookDeliveryWorker } from './delivery/webhook-delivery.worker.js';
import { WEBHOOK_MAX_ATTEMPTS } from './delivery/webhook-retry.js';
import { isWebhookEventType, type WebhookEventType } from '../domain/webhook-event-types.js';
import { WebhookSubscriptions } from './webhook-subscriptions.js';
import { WebhooksRepository } from './webhooks.repository.js';

/**
 * Where events enter outbound webhooks. Emitting queues one delivery per subscribed, enabled
 * endpoint in PostgreSQL (one statement per call, whatever the number of events) and wakes
 * the sender; nothing is sent from the caller's request. Call it after your change committed.
 *
 *   webhooks.emit(projectId, 'subscriber.preference_changed', { subscriber_id, preferences })
 *   webhooks.emitJobs([{ jobId, type: 'job.bounced', extra: { bounce_type: 'Permanent' } }])
 *
 * Job sent/failed/suppressed come from DeliveryEvents and job.queued from EnqueueEvents, here.
 */
@Injectable()
export class WebhookEvents implements OnModuleInit {
  constructor(
    private readonly repository: WebhooksRepository,
    private readonly deliveryEvents: DeliveryEvents,
    private readonly enqueueEvents: EnqueueEvents,
    private readonly evidenceEvents: EvidenceEvents,
    private readonly worker: WebhookDeliveryWorker,
    private readonly subscriptions: WebhookSubscriptions,
    private readonly suppressions: SuppressionsService,
  ) {}

  onModuleInit(): void {
    this.deliveryEvents.onFinalised((outcomes) => this.finalised(outcomes));
    this.suppressions.onCreated((row, runner) => this.suppressionCreated(row, runner));
    this.evidenceEvents.onJobEvents((runner, events) => this.emitJobsInTransaction(runner, events));
    this.evidenceEvents.onCommitted(() => this.wake());
    this.evidenceEvents.onProjectEvent((projectId, type, data) => this.emit(projectId, type, data));
    // Most projects have no job.queued endpoint: asking a (cached) question first saves every
    // send the emit's round trip.
    this.enqueueEvents.onQueued({
      wantsIds: (projectId) => this.subscriptions.wants(projectId, 'job.queued'),
      queued: async (projectId, jobIds) => {
        if (await this.subscriptions.wants(projectId, 'job.queued'))
          await this.emitJobs(jobIds.map((jobId) => ({ jobId, type: 'job.queued' })));
      },
    });
  }

  /** One event with free-form data. Returns the number of deliveries queued. */
  emit(projectId: string, type: WebhookEventType, data: Record<string, unknown>): Promise<number> {
    return this.emitMany([{ projectId, type, data }]);
  }

  async emitMany(
    events: { projectId: string; type: WebhookEventType; data: Record<string, unknown>; at?: Date }[],
  ): Promise<number> {
    if (events.length === 0) return 0;
    for (const e of events) assertType(e.type);
    const queued = await this.repository.emitEvents(
      events.map((e) => ({ ...e, at: e.at ?? new Date() })),
      WEBHOOK_MAX_ATTEMPTS,
    );
    if (queued) this.worker.wake();
    return queued;
  }

  /** Events about jobs, in one statement; the job rows are read in SQL. */
  async emitJobs(events: JobEvent[]): Promise<number> {
    if (events.length === 0) return 0;
    for (const e of events) assertType(e.type);
    const queued = await this.repository.emitJobEvents(events, WEBHOOK_MAX_ATTEMPTS);
    if (queued) this.worker.wake();
    return queued;
  }

  /**
   * Job events queued inside the caller's transaction (provider evidence applies its effects and
   * its events atomically). Nothing is woken: call wake() after the commit.
   */
  async emitJobsInTransaction(runner: QueryRunner, events: JobEvent[]): Promise<number> {
    if (events.length === 0) return 0;
    for (const e of events) assertType(e.type);
    return this.repository.emitJobEvents(events, WEBHOOK_MAX_ATTEMPTS, runner);
  }

  /** Wakes the sender after deliveries were queued in a transaction that has committed. */
  wake(): void {
    this.worker.wake();
  }

  /**
   * A suppression notifyd created → `suppression.created`. As for job events, the address is left
   * out (endpoints are often third-party tools): it is masked, and GET /v1/suppressions/:id with
   * the event's `id` reads it in full. Inside the creator's transaction when it has one (provider evidence): the sender
   * is woken by that caller after its commit (ProviderEvidenceService.apply).
   */
  private async suppressionCreated(row: SuppressionRow, runner?: QueryRunner): Promise<void> {
    // Inside the creator's transaction the emit's own SQL decides (it queues nothing without an
    // endpoint): the cache's miss would take a second pool connection while this one is held, and
    // ten concurrent replays of one bounce, nine waiting on the job's row lock, then held every
    // connection of the pool while the tenth waited for an eleventh (a 500 after the pool timeout).
    if (!runner && !(await this.subscriptions.wants(row.projectId, 'suppression.created'))) return;
    const queued = await this.repository.emitEvents(
      [{ projectId: row.projectId, type: 'suppression.created', data: suppressionEventData(row), at: row.createdAt }],
      WEBHOOK_MAX_ATTEMPTS,
      runner,
    );
    if (queued && !runner) this.worker.wake();
  }

  /** Outcomes just written by the worker → job.sent / job.failed / job.bounced (a synchronous hard bounce) / job.suppressed. */
  private async finalised(o: Outcomes): Promise<void> {
    const events: JobEvent[] = [
      ...o.sent.map((x) => ({ jobId: x.id, type: 'job.sent' as const })),
      ...o.inbox.map((x) => ({ jobId: x.id, type: 'job.sent' as const })),
      // notifyd: a job closed without a provider call (opted out at send time) is sent, provider `skipped`.
      ...o.skipped.map((x) => ({ jobId: x.id, type: 'job.sent' as const })),
      ...o.failed.map((x): JobEvent =>
        x.bounced
          ? { jobId: x.id, type: 'job.bounced', extra: { bounce_type: 'Permanent', synchronous: true } }
          : { jobId: x.id, type: x.error.startsWith('suppressed:') ? 'job.suppressed' : 'job.failed' },
      ),
    ];
    if (events.length === 0 || !(await this.anyoneWants(o.projectIds, new Set(events.map((e) => e.type))))) return;
    await this.emitJobs(events);
  }

  /**
   * Whether any of these projects has an enabled endpoint for any of these types, from the
   * cache the enqueue path already asks: a drain with no job-webhook endpoint then sends no
   * statement per batch (it sent 1 000 ids for the database to find no endpoint). The emit's own
   * SQL still decides per project which deliveries to queue.
   *
   * The price, as for job.queued: an endpoint created or enabled through another replica counts
   * here once its signal arrives (milliseconds; SUBSCRIPTION_CACHE_MS if a signal is lost or
   * signals are off). Jobs finalised inside that window emit nothing, as jobs finalised just
   * before the endpoint's commit never did.
   */
  private async anyoneWants(projectIds: ReadonlySet<string>, types: ReadonlySet<string>): Promise<boolean> {
    const asks = [...projectIds].flatMap((projectId) =>
      [...types].map((type) => this.subscriptions.wants(projectId, type)),
    );
    return (await Promise.all(asks)).some(Boolean);
  }
}

function assertType(type: string): void {
  if (!isWebhookEventType(type)) throw new Error(`unknown webhook event type '${type}'`);
}

/** suppression.created's data: what the suppression is and why, without the address itself or the provider's free text. */
function suppressionEventData(row: SuppressionRow): Record<string, unknown> {
  return {
    id: row.id,
    project_id: row.projectId,
    channel: row.channel,
    address_masked: maskRecipient(row.address, row.channel),
    scope: row.scope,
    reason: row.reason,
    source: row.source,
    source_job_id: row.sourceJobId,
    provider_event_id: row.providerEventId,
    created_at: row.createdAt.toISOString(),
  };
}
