import { Body, Controller, Get, HttpCode, Param, Put } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentProject, ProjectAuth } from '../../projects/auth/auth.decorators.js';
import { ApiErrors } from '../../common/http/api-errors.decorator.js';
import type { ProjectRef } from '../../projects/project.types.js';
import { PreferencesDto, PutPreferencesDto, PutPreferencesResponseDto } from './dto/preference.dto.js';
import { presentPreference, PreferencesService } from './preferences.service.js';

@ApiTags('Subscribers')
@ProjectAuth()
@Controller('v1/subscribers/:id/preferences')
export class PreferencesController {
  constructor(private readonly preferences: PreferencesService) {}

  @Get()
  @ApiOperation({
    operationId: 'getSubscriberPreferences',
    summary: 'A subscriber’s preferences per channel and scope (topic, workflow/template, everything)',
  })
  @ApiErrors(404)
  async getSubscriberPreferences(
    @CurrentProject() project: ProjectRef,
    @Param('id') id: string,
  ): Promise<PreferencesDto> {
    return { subscriber_id: id, preferences: (await this.preferences.get(project.id, id)).map(presentPreference) };
  }

  @Put()
  @HttpCode(200)
  @ApiOperation({
    operationId: 'putSubscriberPreferences',
    summary: 'Opt a subscriber out of (or back into) a channel, topic or workflow; emits subscriber.preference_changed',
  })
  @ApiErrors(400, 404, 422)
  async putSubscriberPreferences(
    @CurrentProject() project: ProjectRef,
    @Param('id') id: string,
    @Body() body: PutPreferencesDto,
  ): Promise<PutPreferencesResponseDto> {
    return { success: true, updated: await this.preferences.put(project.id, id, body.preferences) };
  }
}
