import { Module } from '@nestjs/common';
import { JobEventsModule } from '../job-events/job-events.module.js';
import { JobsModule } from '../jobs/jobs.module.js';
import { WebhookDeliveryWorker } from './delivery/webhook-delivery.worker.js';
import { WebhookSender } from './delivery/webhook-sender.js';
import { WebhookDigestSource } from './webhook-digest.source.js';
import { WebhookEndpointsService } from './webhook-endpoints.service.js';
import { WebhookEvents } from './webhook-events.service.js';
import { WebhookSubscriptions } from './webhook-subscriptions.js';
import { WebhooksRepository } from './webhooks.repository.js';
import { PeriodicModule } from '../periodic/periodic.module.js';
import { GovernanceModule } from '../governance/governance.module.js';
import { AuditModule } from '../audit/audit.module.js';

/**
 * Outbound webhooks: endpoints per project, events queued as deliveries in PostgreSQL,
 * Standard Webhooks signatures, retries for about a day, delivery log. Other modules emit
 * events through WebhookEvents.
 */
@Module({
  imports: [PeriodicModule, GovernanceModule, AuditModule, JobsModule, JobEventsModule],
  providers: [
    WebhooksRepository,
    WebhookSubscriptions,
    WebhookSender,
    WebhookDeliveryWorker,
    WebhookEvents,
    WebhookEndpointsService,
    WebhookDigestSource,
  ],
  exports: [WebhookEvents, WebhookDigestSource, WebhookEndpointsService],
})
export class WebhooksModule {}
