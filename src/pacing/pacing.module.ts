import { Global, Module } from '@nestjs/common';
import { FairShareService } from './fair-share/fair-share.service.js';
import { LaneStateService } from './lane-state.service.js';
import { PacingRepository } from './pacing.repository.js';
import { PacingService } from './pacing.service.js';

/**
 * Pacing: shared token buckets and lane pauses in PostgreSQL (PacingService, used by the
 * worker and enqueue), and the operator's view of lanes (LaneStateService, for the admin
 * endpoint, digest, metrics and MCP).
 */
@Global()
@Module({
  providers: [PacingRepository, PacingService, LaneStateService, FairShareService],
  exports: [PacingService, LaneStateService, FairShareService],
})
export class PacingModule {}
