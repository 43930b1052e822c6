import { Body, Param } from '@nestjs/common';
import { CurrentProject } from '../../projects/auth/auth.decorators.js';
import { ProjectController } from '../../projects/auth/project-controller.decorator.js';
import { Operation } from '../../common/http/operation.decorator.js';
import type { ProjectRef } from '../../projects/project.types.js';
import { PreferencesDto, PutPreferencesDto, PutPreferencesResponseDto } from './dto/preference.dto.js';
import { presentPreference, PreferencesService } from './preferences.service.js';

@ProjectController('v1/subscribers/:id/preferences', 'Subscribers')
export class PreferencesController {
  constructor(private readonly preferences: PreferencesService) {}

  @Operation('GET', [404], 'A subscriber’s preferences per channel and scope (topic, workflow/template, everything)')
  async getSubscriberPreferences(
    @CurrentProject() project: ProjectRef,
    @Param('id') id: string,
  ): Promise<PreferencesDto> {
    return { subscriber_id: id, preferences: (await this.preferences.get(project.id, id)).map(presentPreference) };
  }

  @Operation('PUT', [400, 404, 422], {
    summary: 'Opt a subscriber out of (or back into) a channel, topic or workflow; emits subscriber.preference_changed',
  })
  async putSubscriberPreferences(
    @CurrentProject() project: ProjectRef,
    @Param('id') id: string,
    @Body() body: PutPreferencesDto,
  ): Promise<PutPreferencesResponseDto> {
    return { success: true, updated: await this.preferences.put(project.id, id, body.preferences) };
  }
}
