import { Module } from '@nestjs/common';
import { FairShareService } from './fair-share/fair-share.service.js';
import { LaneStateService } from './lane-state.service.js';
import { PacingRepository } from './pacing.repository.js';
import { PacingService } from './pacing.service.js';
import { AuditModule } from '../audit/audit.module.js';
import { ConnectorsModule } from '../connectors/connectors.module.js';

/**
 * Pacing: shared token buckets and lane pauses in PostgreSQL (PacingService, used by the
 * worker and enqueue), and the operator's view of lanes (LaneStateService, for the admin
 * endpoint, digest, metrics and MCP).
 */
@Module({
  imports: [AuditModule, ConnectorsModule],
  providers: [PacingRepository, PacingService, LaneStateService, FairShareService],
  exports: [PacingService, LaneStateService, FairShareService],
})
export class PacingModule {}
