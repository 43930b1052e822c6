import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AdminAuth, CurrentOperator } from '../projects/auth/auth.decorators.js';
import { Operation } from '../common/http/operation.decorator.js';
import { LaneDto, LaneListDto, PauseLaneRequestDto } from './dto/lane.dto.js';
import { LaneStateService } from './lane-state.service.js';
import { presentLane } from './lane.presenter.js';

@ApiTags('Admin: lanes')
@Controller('v1/admin/lanes')
export class AdminLanesController {
  constructor(private readonly lanes: LaneStateService) {}

  @Get()
  @AdminAuth({ readers: true })
  @Operation('listLanes', [], { summary: 'Pacing state of every lane: rate, tokens, adaptive rate, pause and why' })
  async listLanes(): Promise<LaneListDto> {
    return { lanes: (await this.lanes.lanes()).map(presentLane) };
  }

  @Get(':lane')
  @AdminAuth({ readers: true })
  @Operation('getLane', [404], { summary: 'Pacing state of one lane (channel:provider or channel:provider:project)' })
  async getLane(@Param('lane') lane: string): Promise<LaneDto> {
    return presentLane(await this.lanes.lane(lane));
  }

  @Post(':lane/pause')
  @HttpCode(200)
  @AdminAuth()
  @Operation('pauseLane', [404, 422], {
    summary: 'Pause a lane on every replica (jobs wait, no attempt is used); a longer pause is kept',
  })
  async pauseLane(
    @Param('lane') lane: string,
    @Body() body: PauseLaneRequestDto,
    @CurrentOperator() by: { actor: string; ip?: string },
  ): Promise<LaneDto> {
    return presentLane(await this.lanes.pause(lane, body.duration_secs, body.reason, by));
  }

  @Post(':lane/resume')
  @HttpCode(200)
  @AdminAuth()
  @Operation('resumeLane', [404], { summary: 'Lift a lane’s pause now, whatever set it' })
  async resumeLane(
    @Param('lane') lane: string,
    @CurrentOperator() by: { actor: string; ip?: string },
  ): Promise<LaneDto> {
    return presentLane(await this.lanes.resume(lane, by));
  }
}
