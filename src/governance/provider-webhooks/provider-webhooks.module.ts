import { Module } from '@nestjs/common';
import { JobsModule } from '../../jobs/jobs.module.js';
import { WebhooksModule } from '../../webhooks/webhooks.module.js';
import { EvidenceSuppressions } from './evidence-suppressions.js';
import { LogSimulatorEvidence } from './log-simulator-evidence.js';
import { ProviderEventsRepository } from './provider-events.repository.js';
import { ProviderEvidenceService } from './provider-evidence.service.js';
import { SnsClient } from './sns-client.js';

/**
 * Evidence in: provider webhooks verified on their raw body, deduplicated by the provider's
 * event id, applied once to the job, the suppression list, the audit log and outbound webhooks.
 */
@Module({
  imports: [WebhooksModule, JobsModule],
  providers: [ProviderEventsRepository, ProviderEvidenceService, EvidenceSuppressions, SnsClient, LogSimulatorEvidence],
  exports: [ProviderEvidenceService, SnsClient],
})
export class ProviderWebhooksModule {}
