import { Module } from '@nestjs/common';
import { JobsModule } from '../jobs/jobs.module.js';
import { PacingModule } from '../pacing/pacing.module.js';
import { ProjectsModule } from '../projects/projects.module.js';
import { McpController } from './mcp.controller.js';
import { McpToolRegistry } from './mcp-tool-registry.js';
import { McpAuthService } from './server/mcp-auth.service.js';
import { McpCallService } from './server/mcp-call.service.js';
import { JobsTools } from './tools/jobs.tools.js';
import { LanesTools } from './tools/lanes.tools.js';
import { ProjectsTools } from './tools/projects.tools.js';
import { SendTools } from './tools/send.tools.js';

/**
 * The MCP server: POST /mcp (Streamable HTTP) and `notifyd mcp` (stdio) serve the tools the
 * providers below register. A tool calls the owning module's service, never its SQL.
 */
@Module({
  imports: [JobsModule, PacingModule, ProjectsModule],
  controllers: [McpController],
  providers: [McpToolRegistry, McpCallService, McpAuthService, JobsTools, SendTools, ProjectsTools, LanesTools],
  exports: [McpToolRegistry, McpCallService],
})
export class McpModule {}
