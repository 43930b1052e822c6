import { Global, Module } from '@nestjs/common';
import { GovernanceService } from './governance.service.js';
import { SuppressionsController } from './suppressions/suppressions.controller.js';
import { SuppressionsRepository } from './suppressions/suppressions.repository.js';
import { SuppressionsService } from './suppressions/suppressions.service.js';

/**
 * Who may be sent what: suppressions (every channel), and the worker's per-batch screening.
 * Global so that enqueue, the worker, provider webhooks and MCP tools reach its services.
 */
@Global()
@Module({
  controllers: [SuppressionsController],
  providers: [GovernanceService, SuppressionsRepository, SuppressionsService],
  exports: [GovernanceService, SuppressionsService],
})
export class GovernanceModule {}
