import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminAuth, CurrentOperator } from '../projects/auth/auth.decorators.js';
import { ApiErrors } from '../common/http/api-errors.decorator.js';
import { LaneDto, LaneListDto, PauseLaneRequestDto } from './dto/lane.dto.js';
import { LaneStateService } from './lane-state.service.js';
import { presentLane } from './lane.presenter.js';

@ApiTags('Admin: lanes')
@Controller('v1/admin/lanes')
export class AdminLanesController {
  constructor(private readonly lanes: LaneStateService) {}

  @Get()
  @AdminAuth({ readers: true })
  @ApiOperation({
    operationId: 'listLanes',
    summary: 'Pacing state of every lane: rate, tokens, adaptive rate, pause and why',
  })
  async listLanes(): Promise<LaneListDto> {
    return { lanes: (await this.lanes.lanes()).map(presentLane) };
  }

  @Get(':lane')
  @AdminAuth({ readers: true })
  @ApiOperation({
    operationId: 'getLane',
    summary: 'Pacing state of one lane (channel:provider or channel:provider:project)',
  })
  @ApiErrors(404)
  async getLane(@Param('lane') lane: string): Promise<LaneDto> {
    return presentLane(await this.lanes.lane(lane));
  }

  @Post(':lane/pause')
  @HttpCode(200)
  @AdminAuth()
  @ApiOperation({
    operationId: 'pauseLane',
    summary: 'Pause a lane on every replica (jobs wait, no attempt is used); a longer pause is kept',
  })
  @ApiErrors(404, 422)
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
  @ApiOperation({ operationId: 'resumeLane', summary: 'Lift a lane’s pause now, whatever set it' })
  @ApiErrors(404)
  async resumeLane(
    @Param('lane') lane: string,
    @CurrentOperator() by: { actor: string; ip?: string },
  ): Promise<LaneDto> {
    return presentLane(await this.lanes.resume(lane, by));
  }
}
