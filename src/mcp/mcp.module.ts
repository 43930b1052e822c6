import { Module } from '@nestjs/common';
import { JobsModule } from '../jobs/jobs.module.js';
import { McpToolRegistry } from './mcp-tool-registry.js';
import { SendAndWaitTool } from './tools/send-and-wait.tool.js';

@Module({ imports: [JobsModule], providers: [McpToolRegistry, SendAndWaitTool], exports: [McpToolRegistry] })
export class McpModule {}
