import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { SIMULATED_COMPLAINT_ID_PREFIX } from '../../connectors/log/log-simulator.js';
import { DeliveryEvents } from './delivery-events.js';
import type { Outcomes } from './outcomes.js';
import type { ProviderEvent } from '../../governance/provider-webhooks/provider-event.js';
import { ProviderEvidenceService } from '../../governance/provider-webhooks/provider-evidence.service.js';

/**
 * The `log` provider's complaint@simulator.notifyd.test: once the message is recorded sent, a
 * spam complaint arrives as provider evidence, through the same path as a real provider's
 * webhook (job.complained, a complaint suppression, suppression.created, the job's
 * provider_events). Costs nothing to batches without such a message (one prefix test per sent job
 * of the log provider).
 */
@Injectable()
export class LogSimulatorEvidence implements OnModuleInit {
  private readonly logger = new Logger(LogSimulatorEvidence.name);

  constructor(
    private readonly deliveryEvents: DeliveryEvents,
    private readonly evidence: ProviderEvidenceService,
  ) {}

  onModuleInit(): void {
    this.deliveryEvents.onFinalised((outcomes) => this.finalised(outcomes));
  }

  private async finalised(o: Outcomes): Promise<void> {
    const complaints = o.sent.filter(
      (s) => s.provider === 'log' && s.providerMessageId?.startsWith(SIMULATED_COMPLAINT_ID_PREFIX),
    );
    if (complaints.length === 0) return;
    const events: ProviderEvent[] = complaints.map((s) => ({
      provider: 'log',
      eventId: s.providerMessageId!,
      kind: 'complained',
      providerType: 'simulated.complaint',
      jobId: s.id,
      providerMessageId: s.providerMessageId,
      recipients: [],
      occurredAt: new Date(),
      error: null,
      suppress: { channel: 'email', scope: 'all', reason: 'complaint', addresses: [] },
      payload: { simulated: true },
    }));
    const result = await this.evidence.apply(events);
    this.logger.log(`log simulator: ${result.recorded} spam complaint(s) recorded as provider evidence`);
  }
}
