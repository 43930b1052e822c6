import { Injectable, Logger } from '@nestjs/common';
import type { QueryRunner } from 'typeorm';
import { AuditService } from '../../audit/audit.service.js';
import { Db } from '../../database/db.js';
import type { WebhookEventType } from '../../domain/webhook-event-types.js';
import { EvidenceEvents } from '../../job-events/evidence-events.js';
import { EvidenceSuppressions, type EvidenceSuppression } from './evidence-suppressions.js';
import type { EvidenceKind, ProviderEvent } from './provider-event.js';
import { ProviderEventsRepository, type EvidenceJob } from './provider-events.repository.js';

/** The outbound webhook event a job change fires. */
const OUTBOUND: Partial<Record<EvidenceKind, WebhookEventType>> = {
  delivered: 'job.delivered',
  bounced: 'job.bounced',
  complained: 'job.complained',
  opened: 'job.opened',
  clicked: 'job.clicked',
};

export interface EvidenceResult {
  /** Events seen for the first time (stored, effects applied). */
  recorded: number;
  /** Replays of events already stored: nothing changed. */
  duplicates: number;
}

/**
 * Applies verified provider events. Each event is one transaction: find and lock its job,
 * record the event (the dedup), change the job, create the suppressions it asks for, write the
 * audit line and queue the outbound webhook events. A crash before the commit leaves nothing,
 * and the provider's retry applies it; after the commit a replay is a no-op. Events are applied
 * one by one so that two webhook batches touching the same jobs in another order cannot deadlock.
 */
@Injectable()
export class ProviderEvidenceService {
  private readonly logger = new Logger(ProviderEvidenceService.name);

  constructor(
    private readonly db: Db,
    private readonly repository: ProviderEventsRepository,
    private readonly suppressions: EvidenceSuppressions,
    private readonly audit: AuditService,
    private readonly events: EvidenceEvents,
  ) {}

  async apply(events: readonly ProviderEvent[]): Promise<EvidenceResult> {
    const result: EvidenceResult = { recorded: 0, duplicates: 0 };
    let queued = 0;
    for (const event of events) {
      const outcome = await this.db.transaction((runner) => this.applyOne(runner, event));
      if (outcome === 'duplicate') result.duplicates++;
      else {
        result.recorded++;
        queued += outcome.queued;
      }
    }
    // Deliveries queued in the transactions (job events, and suppression.created from the suppressions) go now.
    if (queued || result.recorded) this.events.committed();
    return result;
  }

  private async applyOne(runner: QueryRunner, event: ProviderEvent): Promise<'duplicate' | { queued: number }> {
    // Matched by the provider's message id; a job id the event carries is a hint checked against it.
    const job = await this.repository.findJob(runner, event);
    if (!(await this.repository.insertEvent(runner, event, job))) return 'duplicate';
    if (!job && event.projectId && event.suppress) {
      // About an address, not a message (a STOP reply): suppress it in the project the URL names.
      const actor = `${event.provider}-webhook`;
      await this.suppressions.suppress(
        runner,
        this.suppressionsFor(event, { projectId: event.projectId, id: null, recipient: null }, actor),
      );
      return { queued: 0 };
    }
    if (!job) {
      // Untagged or unknown message (e.g. a provider account shared with another system):
      // kept as evidence, nothing to change.
      this.logger.debug(`${event.provider} ${event.providerType} ${event.eventId}: no matching job`);
      return { queued: 0 };
    }
    const actor = `${event.provider}-webhook`;
    const changed = await this.repository.applyToJob(runner, job.id, event, event.occurredAt ?? new Date());
    if (changed) {
      await this.audit.record(
        {
          projectId: job.projectId,
          actor,
          action: `job.${event.kind}`,
          resource: job.id,
          metadata: { provider: event.provider, event_type: event.providerType, event_id: event.eventId },
        },
        runner,
      );
    }
    if (event.suppress) await this.suppressions.suppress(runner, this.suppressionsFor(event, job, actor));
    const outbound = OUTBOUND[event.kind];
    const queued =
      changed && outbound
        ? await this.events.publishJobEvents(runner, [
            {
              jobId: job.id,
              type: outbound,
              extra: { provider_event: { provider: event.provider, type: event.providerType, error: event.error } },
            },
          ])
        : 0;
    return { queued };
  }

  private suppressionsFor(
    event: ProviderEvent,
    job: Pick<EvidenceJob, 'projectId'> & { id: string | null; recipient: string | null },
    actor: string,
  ): EvidenceSuppression[] {
    const request = event.suppress!;
    const addresses = request.addresses.length ? request.addresses : job.recipient ? [job.recipient] : [];
    return [...new Set(addresses)].map((address) => ({
      projectId: job.projectId,
      channel: request.channel,
      address,
      scope: request.scope,
      reason: request.reason,
      source: actor,
      evidence: {
        provider: event.provider,
        event_type: event.providerType,
        ...(event.error ? { error: event.error } : {}),
      },
      sourceJobId: job.id,
      providerEventId: `${event.provider}:${event.eventId}`,
    }));
  }
}
