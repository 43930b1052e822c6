import { Module } from '@nestjs/common';
import { McpToolRegistry } from './mcp-tool-registry.js';

@Module({ providers: [McpToolRegistry], exports: [McpToolRegistry] })
export class McpModule {}
