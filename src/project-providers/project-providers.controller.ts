import { Body, Param } from '@nestjs/common';
import { AdminController, CurrentOperator, ReaderAllowed } from '../projects/auth/auth.decorators.js';
import { Operation } from '../common/http/operation.decorator.js';
import {
  DeletedProjectProviderDto,
  ProjectProviderDto,
  ProjectProviderListDto,
  PutProjectProviderDto,
  ResealResultDto,
} from './dto/project-provider.dto.js';
import { presentProjectProvider } from './project-provider.presenter.js';
import { ProjectProvidersService } from './project-providers.service.js';
import type { Actor } from '../domain/actor.js';

@AdminController('v1/admin', 'Admin: project providers')
export class ProjectProvidersController {
  constructor(private readonly providers: ProjectProvidersService) {}

  @Operation('PUT /projects/:id/providers/:channel', [404, 422], {
    summary: 'Give a project its own provider account on a channel (credentials encrypted at rest)',
  })
  async putProjectProvider(
    @Param('id') id: string,
    @Param('channel') channel: string,
    @Body() body: PutProjectProviderDto,
    @CurrentOperator() by: Actor,
  ): Promise<ProjectProviderDto> {
    return presentProjectProvider(await this.providers.put(id, channel, body.provider, body.settings, by));
  }

  @Operation('GET /projects/:id/providers', [404], 'A project’s own providers, secrets masked')
  @ReaderAllowed()
  async listProjectProviders(@Param('id') id: string): Promise<ProjectProviderListDto> {
    return { providers: (await this.providers.list(id)).map(presentProjectProvider) };
  }

  @Operation('GET /projects/:id/providers/:channel', [404], 'A project’s own provider on a channel, secrets masked')
  @ReaderAllowed()
  async getProjectProvider(@Param('id') id: string, @Param('channel') channel: string): Promise<ProjectProviderDto> {
    return presentProjectProvider(await this.providers.get(id, channel));
  }

  @Operation('DELETE /projects/:id/providers/:channel', [404], {
    summary: 'Remove a project’s own provider: its jobs use the instance’s provider again',
  })
  async deleteProjectProvider(
    @Param('id') id: string,
    @Param('channel') channel: string,
    @CurrentOperator() by: Actor,
  ): Promise<DeletedProjectProviderDto> {
    await this.providers.delete(id, channel, by);
    return { success: true };
  }

  @Operation('POST /project-providers/reseal', [422], {
    summary: 'Key rotation: re-encrypt every project’s credentials under the current NOTIFYD_SECRET_KEY',
  })
  async resealProjectProviders(@CurrentOperator() by: Actor): Promise<ResealResultDto> {
    return this.providers.reseal(by);
  }
}
