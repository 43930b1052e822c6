import { Module } from '@nestjs/common';
import { DigestModule } from '../digest/digest.module.js';
import { InboxModule } from '../inbox/inbox.module.js';
import { JobsModule } from '../jobs/jobs.module.js';
import { PacingModule } from '../pacing/pacing.module.js';
import { ProjectsModule } from '../projects/projects.module.js';
import { PushTokensModule } from '../push-tokens/push-tokens.module.js';
import { SubscribersModule } from '../subscribers/subscribers.module.js';
import { WebhooksModule } from '../webhooks/webhooks.module.js';
import { WorkflowsModule } from '../workflows/workflows.module.js';
import { McpController } from './mcp.controller.js';
import { MCP_TOOL_PROVIDERS, McpToolRegistry, type McpToolProvider } from './mcp-tool-registry.js';
import { McpAuthService } from './server/mcp-auth.service.js';
import { McpCallService } from './server/mcp-call.service.js';
import { AuditTools } from './tools/audit.tools.js';
import { CapsTools } from './tools/caps.tools.js';
import { ChannelsTools } from './tools/channels.tools.js';
import { ChatBindingsTools } from './tools/chat-bindings.tools.js';
import { DigestTools } from './tools/digest.tools.js';
import { InboxTools } from './tools/inbox.tools.js';
import { JobsTools } from './tools/jobs.tools.js';
import { LanesTools } from './tools/lanes.tools.js';
import { ProjectKeysTools } from './tools/project-keys.tools.js';
import { ProjectProvidersTools } from './tools/project-providers.tools.js';
import { ProjectsTools } from './tools/projects.tools.js';
import { PushTokensTools } from './tools/push-tokens.tools.js';
import { SegmentsTools } from './tools/segments.tools.js';
import { SendTools } from './tools/send.tools.js';
import { SendWindowsTools } from './tools/send-windows.tools.js';
import { SettingsTools } from './tools/settings.tools.js';
import { SubscriberRemovalTools } from './tools/subscriber-removal.tools.js';
import { SubscribersBulkTools } from './tools/subscribers-bulk.tools.js';
import { SubscribersTools } from './tools/subscribers.tools.js';
import { SuppressionsTools } from './tools/suppressions.tools.js';
import { TemplateMetricsTools } from './tools/template-metrics.tools.js';
import { TemplatesTools } from './tools/templates.tools.js';
import { TraceTools } from './tools/trace.tools.js';
import { WebhookEndpointsTools } from './tools/webhook-endpoints.tools.js';
import { WebhooksTools } from './tools/webhooks.tools.js';
import { WorkflowDefinitionsTools } from './tools/workflow-definitions.tools.js';
import { WorkflowsTools } from './tools/workflows.tools.js';
import { AuditModule } from '../audit/audit.module.js';
import { ProjectProvidersModule } from '../project-providers/project-providers.module.js';
import { ChatBindingsModule } from '../chat-bindings/chat-bindings.module.js';
import { GovernanceModule } from '../governance/governance.module.js';
import { TemplatesModule } from '../templates/templates.module.js';
import { ObservabilityModule } from '../observability/observability.module.js';

/** One injectable per area; the registry collects their tools. */
const TOOL_PROVIDERS = [
  DigestTools,
  JobsTools,
  SendTools,
  SettingsTools,
  ProjectsTools,
  ProjectKeysTools,
  ProjectProvidersTools,
  ChatBindingsTools,
  LanesTools,
  SuppressionsTools,
  SubscribersTools,
  SubscribersBulkTools,
  SubscriberRemovalTools,
  TemplatesTools,
  TemplateMetricsTools,
  WebhooksTools,
  WebhookEndpointsTools,
  WorkflowsTools,
  TraceTools,
  WorkflowDefinitionsTools,
  AuditTools,
  CapsTools,
  SendWindowsTools,
  SegmentsTools,
  PushTokensTools,
  ChannelsTools,
  InboxTools,
];

/**
 * The MCP server: POST /mcp (Streamable HTTP) and `notifyd mcp` (stdio) serve the tools of
 * TOOL_PROVIDERS. A tool calls the owning module's service, never its SQL.
 * Suppressions, caps, send windows, segments, templates, project providers (and the channel
 * report), chat bindings and the audit log come from global modules (GovernanceModule, TemplatesModule,
 * ProjectProvidersModule, ChatBindingsModule, AuditModule).
 */
@Module({
  imports: [
    AuditModule,
    ProjectProvidersModule,
    ChatBindingsModule,
    GovernanceModule,
    TemplatesModule,
    ObservabilityModule,
    JobsModule,
    PacingModule,
    ProjectsModule,
    DigestModule,
    SubscribersModule,
    WebhooksModule,
    WorkflowsModule,
    InboxModule,
    PushTokensModule,
  ],
  controllers: [McpController],
  providers: [
    McpToolRegistry,
    McpCallService,
    McpAuthService,
    ...TOOL_PROVIDERS,
    {
      provide: MCP_TOOL_PROVIDERS,
      useFactory: (...providers: McpToolProvider[]) => providers,
      inject: TOOL_PROVIDERS,
    },
  ],
  exports: [McpToolRegistry, McpCallService],
})
export class McpModule {}
