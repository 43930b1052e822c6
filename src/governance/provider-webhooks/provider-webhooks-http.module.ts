import { Module } from '@nestjs/common';
import { PostmarkWebhookController } from './postmark-webhook.controller.js';
import { ResendWebhookController } from './resend-webhook.controller.js';
import { SendgridWebhookController } from './sendgrid-webhook.controller.js';
import { SesWebhookController } from './ses-webhook.controller.js';
import { TwilioWebhookController } from './twilio-webhook.controller.js';
import { WhatsAppWebhookController } from './whatsapp-webhook.controller.js';
import { ProviderWebhooksModule } from './provider-webhooks.module.js';
import { ProjectsModule } from '../../projects/projects.module.js';
import { AuditModule } from '../../audit/audit.module.js';

/** ProviderWebhooksModule's HTTP routes. Only api and all replicas load it (see app-http.module.ts). */
@Module({
  imports: [ProjectsModule, AuditModule, ProviderWebhooksModule],
  controllers: [
    ResendWebhookController,
    PostmarkWebhookController,
    TwilioWebhookController,
    WhatsAppWebhookController,
    SendgridWebhookController,
    SesWebhookController,
  ],
})
export class ProviderWebhooksHttpModule {}
