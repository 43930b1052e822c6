import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { ConnectorRegistry } from './connector-registry.js';
import { FailoverBreaker } from './failover/failover-breaker.js';
import { OutboundGuard } from '../common/ssrf/outbound-guard.js';

/**
 * The Connector contract, the registry that discovers implementations, and the built-in
 * providers. A connector in any module is discovered without importing this one; the modules
 * that read the registry (the worker, the digest, MCP…) import it.
 */
@Module({
  imports: [DiscoveryModule],
  providers: [ConnectorRegistry, OutboundGuard, FailoverBreaker],
  exports: [ConnectorRegistry, OutboundGuard, FailoverBreaker],
})
export class ConnectorsModule {}
