import { Global, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { ConnectorRegistry } from './connector-registry.js';
import { FailoverBreaker } from './failover/failover-breaker.js';
import { OutboundGuard } from '../common/ssrf/outbound-guard.js';

/**
 * The Connector contract, the registry that discovers implementations, and the built-in
 * providers. Global, so that a connector in any module can be discovered and the registry
 * read by the worker, the digest and MCP.
 */
@Global()
@Module({
  imports: [DiscoveryModule],
  providers: [ConnectorRegistry, OutboundGuard, FailoverBreaker],
  exports: [ConnectorRegistry, OutboundGuard, FailoverBreaker],
})
export class ConnectorsModule {}
