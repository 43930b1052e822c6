import { type DynamicModule, Module, type ModuleMetadata } from '@nestjs/common';
import { ScheduleModule } from '@nestjs/schedule';
import { AuditModule } from './audit/audit.module.js';
import type { AppConfig } from './config/app-config.js';
import { ConfigModule } from './config/config.module.js';
import { ConnectorsModule } from './connectors/connectors.module.js';
import { EmailConnectorsModule } from './connectors/email/email.module.js';
import { InAppModule } from './connectors/in-app/in-app.module.js';
import { SmsModule } from './connectors/sms/sms.module.js';
import { WhatsAppModule } from './connectors/whatsapp/whatsapp.module.js';
import { ChatModule } from './connectors/chat/chat.module.js';
import { ChatBindingsModule } from './chat-bindings/chat-bindings.module.js';
import { TelegramRoutesModule } from './telegram-routes/telegram-routes.module.js';
import type { Database } from './database/database.js';
import { DatabaseModule } from './database/database.module.js';
import { SignalsModule } from './database/signals/signals.module.js';
import { DigestModule } from './digest/digest.module.js';
import { GovernanceModule } from './governance/governance.module.js';
import { HealthModule } from './health/health.module.js';
import { InboxModule } from './inbox/inbox.module.js';
import { JobsModule } from './jobs/jobs.module.js';
import { ObservabilityModule } from './observability/observability.module.js';
import { PacingModule } from './pacing/pacing.module.js';
import { PeriodicModule } from './periodic/periodic.module.js';
import { ProjectProvidersModule } from './project-providers/project-providers.module.js';
import { ProjectsModule } from './projects/projects.module.js';
import { ProviderWebhooksModule } from './governance/provider-webhooks/provider-webhooks.module.js';
import { PushTokensModule } from './push-tokens/push-tokens.module.js';
import { PushModule } from './connectors/push/push.module.js';
import { SubscribersModule } from './subscribers/subscribers.module.js';
import { TemplatesModule } from './templates/templates.module.js';
import { WebhooksModule } from './webhooks/webhooks.module.js';
import { WorkflowsModule } from './workflows/workflows.module.js';

export interface AppModuleOptions {
  config: AppConfig;
  database: Database;
  /** Extra modules, e.g. an enterprise team's own connectors (see examples/). */
  imports?: ModuleMetadata['imports'];
}

/**
 * The application without its HTTP surface: every service, the worker and the scheduled work.
 * A worker replica runs exactly this; api and all replicas add AppHttpModule (controllers and
 * MCP). Config and database are opened before Nest starts (see main.ts).
 */
@Module({})
export class AppModule {
  static forRoot(options: AppModuleOptions): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(options.config),
        DatabaseModule.forRoot(options.database),
        SignalsModule,
        ScheduleModule.forRoot(),
        AuditModule,
        PeriodicModule,
        ProjectsModule,
        SubscribersModule,
        ConnectorsModule,
        InAppModule,
        EmailConnectorsModule,
        ProjectProvidersModule,
        ChatBindingsModule,
        TelegramRoutesModule,
        SmsModule,
        WhatsAppModule,
        ChatModule,
        PacingModule,
        GovernanceModule,
        TemplatesModule,
        JobsModule,
        DigestModule,
        ObservabilityModule,
        WebhooksModule,
        WorkflowsModule,
        InboxModule,
        ProviderWebhooksModule,
        PushTokensModule,
        PushModule,
        HealthModule,
        ...(options.imports ?? []),
      ],
    };
  }
}
