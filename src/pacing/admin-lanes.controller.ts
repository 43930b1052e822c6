import { Body, Param } from '@nestjs/common';
import { AdminController, CurrentOperator, ReaderAllowed } from '../projects/auth/auth.decorators.js';
import { Operation } from '../common/http/operation.decorator.js';
import { LaneDto, LaneListDto, PauseLaneRequestDto } from './dto/lane.dto.js';
import { LaneStateService } from './lane-state.service.js';
import { presentLane } from './lane.presenter.js';
import type { Actor } from '../domain/actor.js';

@AdminController('v1/admin/lanes', 'Admin: lanes')
export class AdminLanesController {
  constructor(private readonly lanes: LaneStateService) {}

  @Operation('GET', [], 'Pacing state of every lane: rate, tokens, adaptive rate, pause and why')
  @ReaderAllowed()
  async listLanes(): Promise<LaneListDto> {
    return { lanes: (await this.lanes.lanes()).map(presentLane) };
  }

  @Operation('GET /:lane', [404], 'Pacing state of one lane (channel:provider or channel:provider:project)')
  @ReaderAllowed()
  async getLane(@Param('lane') lane: string): Promise<LaneDto> {
    return presentLane(await this.lanes.lane(lane));
  }

  @Operation('POST /:lane/pause', [404, 422], {
    summary: 'Pause a lane on every replica (jobs wait, no attempt is used); a longer pause is kept',
  })
  async pauseLane(
    @Param('lane') lane: string,
    @Body() body: PauseLaneRequestDto,
    @CurrentOperator() by: Actor,
  ): Promise<LaneDto> {
    return presentLane(await this.lanes.pause(lane, body.duration_secs, body.reason, by));
  }

  @Operation('POST /:lane/resume', [404], 'Lift a lane’s pause now, whatever set it')
  async resumeLane(@Param('lane') lane: string, @CurrentOperator() by: Actor): Promise<LaneDto> {
    return presentLane(await this.lanes.resume(lane, by));
  }
}
