import { Module } from '@nestjs/common';
import { AuditHttpModule } from './audit/audit-http.module.js';
import { ConsoleHttpModule } from './console/console-http.module.js';
import { ChatBindingsHttpModule } from './chat-bindings/chat-bindings-http.module.js';
import { DigestHttpModule } from './digest/digest-http.module.js';
import { GovernanceHttpModule } from './governance/governance-http.module.js';
import { ProviderWebhooksHttpModule } from './governance/provider-webhooks/provider-webhooks-http.module.js';
import { HealthHttpModule } from './health/health-http.module.js';
import { InboxHttpModule } from './inbox/inbox-http.module.js';
import { JobsHttpModule } from './jobs/jobs-http.module.js';
import { McpModule } from './mcp/mcp.module.js';
import { ObservabilityHttpModule } from './observability/observability-http.module.js';
import { PacingHttpModule } from './pacing/pacing-http.module.js';
import { ProjectProvidersHttpModule } from './project-providers/project-providers-http.module.js';
import { ProjectsHttpModule } from './projects/projects-http.module.js';
import { PushTokensHttpModule } from './push-tokens/push-tokens-http.module.js';
import { TelegramRoutesHttpModule } from './telegram-routes/telegram-routes-http.module.js';
import { SubscribersHttpModule } from './subscribers/subscribers-http.module.js';
import { TemplatesHttpModule } from './templates/templates-http.module.js';
import { WebhooksHttpModule } from './webhooks/webhooks-http.module.js';
import { WorkflowsHttpModule } from './workflows/workflows-http.module.js';

/**
 * Everything HTTP: the controllers of every module (their DTOs carry the @nestjs/swagger and
 * class-validator metadata) and the MCP endpoint. api and all replicas import it on top of
 * AppModule; a worker replica never loads this file, nor Fastify and the OpenAPI layer (see
 * main.ts), which keeps its resident memory down (docs/BENCHMARKS.md, issue 9).
 */
@Module({
  // The order of AppModule's list: routes and the OpenAPI document keep their order.
  imports: [
    AuditHttpModule,
    ProjectsHttpModule,
    SubscribersHttpModule,
    ProjectProvidersHttpModule,
    ChatBindingsHttpModule,
    TelegramRoutesHttpModule,
    PacingHttpModule,
    GovernanceHttpModule,
    TemplatesHttpModule,
    JobsHttpModule,
    DigestHttpModule,
    ObservabilityHttpModule,
    McpModule,
    WebhooksHttpModule,
    WorkflowsHttpModule,
    InboxHttpModule,
    ProviderWebhooksHttpModule,
    PushTokensHttpModule,
    HealthHttpModule,
    ConsoleHttpModule,
  ],
})
export class AppHttpModule {}
