import { Module } from '@nestjs/common';
import { DigestModule } from '../digest/digest.module.js';
import { JobsModule } from '../jobs/jobs.module.js';
import { PacingModule } from '../pacing/pacing.module.js';
import { ProjectsModule } from '../projects/projects.module.js';
import { SubscribersModule } from '../subscribers/subscribers.module.js';
import { WebhooksModule } from '../webhooks/webhooks.module.js';
import { WorkflowsModule } from '../workflows/workflows.module.js';
import { McpController } from './mcp.controller.js';
import { McpToolRegistry } from './mcp-tool-registry.js';
import { McpAuthService } from './server/mcp-auth.service.js';
import { McpCallService } from './server/mcp-call.service.js';
import { ChatBindingsTools } from './tools/chat-bindings.tools.js';
import { DigestTools } from './tools/digest.tools.js';
import { JobsTools } from './tools/jobs.tools.js';
import { LanesTools } from './tools/lanes.tools.js';
import { ProjectProvidersTools } from './tools/project-providers.tools.js';
import { ProjectsTools } from './tools/projects.tools.js';
import { SendTools } from './tools/send.tools.js';
import { SettingsTools } from './tools/settings.tools.js';
import { SubscribersBulkTools } from './tools/subscribers-bulk.tools.js';
import { SubscribersTools } from './tools/subscribers.tools.js';
import { SuppressionsTools } from './tools/suppressions.tools.js';
import { TemplateMetricsTools } from './tools/template-metrics.tools.js';
import { TemplatesTools } from './tools/templates.tools.js';
import { TraceTools } from './tools/trace.tools.js';
import { WebhooksTools } from './tools/webhooks.tools.js';
import { WorkflowsTools } from './tools/workflows.tools.js';

/**
 * The MCP server: POST /mcp (Streamable HTTP) and `notifyd mcp` (stdio) serve the tools the
 * providers below register. A tool calls the owning module's service, never its SQL.
 * Suppressions, templates, project providers and chat bindings come from global modules
 * (GovernanceModule, TemplatesModule, ProjectProvidersModule, ChatBindingsModule).
 */
@Module({
  imports: [JobsModule, PacingModule, ProjectsModule, DigestModule, SubscribersModule, WebhooksModule, WorkflowsModule],
  controllers: [McpController],
  providers: [
    McpToolRegistry,
    McpCallService,
    McpAuthService,
    DigestTools,
    JobsTools,
    SendTools,
    SettingsTools,
    ProjectsTools,
    ProjectProvidersTools,
    ChatBindingsTools,
    LanesTools,
    SuppressionsTools,
    SubscribersTools,
    SubscribersBulkTools,
    TemplatesTools,
    TemplateMetricsTools,
    WebhooksTools,
    WorkflowsTools,
    TraceTools,
  ],
  exports: [McpToolRegistry, McpCallService],
})
export class McpModule {}
