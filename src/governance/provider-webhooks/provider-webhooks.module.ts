import { Module } from '@nestjs/common';
import { JobEventsModule } from '../../job-events/job-events.module.js';
import { EvidenceSuppressions } from './evidence-suppressions.js';
import { ProviderEventsRepository } from './provider-events.repository.js';
import { ProviderEvidenceService } from './provider-evidence.service.js';
import { SnsClient } from './sns-client.js';
import { AuditModule } from '../../audit/audit.module.js';
import { GovernanceModule } from '../governance.module.js';

/**
 * Evidence in: provider webhooks verified on their raw body, deduplicated by the provider's
 * event id, applied once to the job, the suppression list, the audit log and, through EvidenceEvents, outbound webhooks.
 */
@Module({
  imports: [AuditModule, GovernanceModule, JobEventsModule],
  providers: [ProviderEventsRepository, ProviderEvidenceService, EvidenceSuppressions, SnsClient],
  exports: [ProviderEvidenceService, SnsClient],
})
export class ProviderWebhooksModule {}
