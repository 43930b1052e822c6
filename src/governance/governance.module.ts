import { Global, Module } from '@nestjs/common';
import { GovernanceService } from './governance.service.js';
import { SuppressionsController } from './suppressions/suppressions.controller.js';
import { SuppressionsRepository } from './suppressions/suppressions.repository.js';
import { SuppressionsService } from './suppressions/suppressions.service.js';
import { SendWindowsController } from './send-windows/send-windows.controller.js';
import { SendWindowsRepository } from './send-windows/send-windows.repository.js';
import { SendWindowsService } from './send-windows/send-windows.service.js';

/**
 * Who may be sent what: suppressions (every channel), and the worker's per-batch screening.
 * Global so that enqueue, the worker, provider webhooks and MCP tools reach its services.
 */
@Global()
@Module({
  controllers: [SuppressionsController, SendWindowsController],
  providers: [GovernanceService, SuppressionsRepository, SuppressionsService, SendWindowsRepository, SendWindowsService],
  exports: [GovernanceService, SuppressionsService, SendWindowsService],
})
export class GovernanceModule {}
