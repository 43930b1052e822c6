import { Param } from '@nestjs/common';
import { AdminController } from '../../projects/auth/auth.decorators.js';
import { Operation } from '../../common/http/operation.decorator.js';
import { ExistingProjectPipe } from '../../projects/existing-project.pipe.js';
import { PreferencesDto } from './dto/preference.dto.js';
import { presentPreference, PreferencesService } from './preferences.service.js';

/** Any project's subscriber's preferences, for operators; changing them stays with the project's key. */
@AdminController('v1/admin/projects/:id/subscribers/:subscriber_id/preferences', 'Admin: subscribers', {
  readers: true,
})
export class AdminPreferencesController {
  constructor(private readonly preferences: PreferencesService) {}

  @Operation('GET', [404], 'A project’s subscriber’s preferences per channel and scope')
  async adminGetSubscriberPreferences(
    @Param('id', ExistingProjectPipe) projectId: string,
    @Param('subscriber_id') id: string,
  ): Promise<PreferencesDto> {
    return { subscriber_id: id, preferences: (await this.preferences.get(projectId, id)).map(presentPreference) };
  }
}
