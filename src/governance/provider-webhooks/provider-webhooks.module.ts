import { Module } from '@nestjs/common';
import { WebhooksModule } from '../../webhooks/webhooks.module.js';
import { EvidenceSuppressions } from './evidence-suppressions.js';
import { ProviderEventsRepository } from './provider-events.repository.js';
import { ProviderEvidenceService } from './provider-evidence.service.js';
import { PostmarkWebhookController } from './postmark-webhook.controller.js';
import { ResendWebhookController } from './resend-webhook.controller.js';
import { SendgridWebhookController } from './sendgrid-webhook.controller.js';
import { SesWebhookController } from './ses-webhook.controller.js';
import { SnsClient } from './sns-client.js';
import { TwilioWebhookController } from './twilio-webhook.controller.js';
import { WhatsAppWebhookController } from './whatsapp-webhook.controller.js';

/**
 * Evidence in: provider webhooks verified on their raw body, deduplicated by the provider's
 * event id, applied once to the job, the suppression list, the audit log and outbound webhooks.
 */
@Module({
  imports: [WebhooksModule],
  controllers: [ResendWebhookController, PostmarkWebhookController, TwilioWebhookController, WhatsAppWebhookController, SendgridWebhookController, SesWebhookController],
  providers: [ProviderEventsRepository, ProviderEvidenceService, EvidenceSuppressions, SnsClient],
})
export class ProviderWebhooksModule {}
