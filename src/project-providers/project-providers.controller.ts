import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AdminAuth, CurrentOperator } from '../projects/auth/auth.decorators.js';
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

@ApiTags('Admin: project providers')
@Controller('v1/admin')
export class ProjectProvidersController {
  constructor(private readonly providers: ProjectProvidersService) {}

  @Put('projects/:id/providers/:channel')
  @AdminAuth()
  @Operation('putProjectProvider', [404, 422], {
    summary: 'Give a project its own provider account on a channel (credentials encrypted at rest)',
  })
  async put(
    @Param('id') id: string,
    @Param('channel') channel: string,
    @Body() body: PutProjectProviderDto,
    @CurrentOperator() by: { actor: string; ip?: string },
  ): Promise<ProjectProviderDto> {
    return presentProjectProvider(await this.providers.put(id, channel, body.provider, body.settings, by));
  }

  @Get('projects/:id/providers')
  @AdminAuth({ readers: true })
  @Operation('listProjectProviders', [404], { summary: 'A project’s own providers, secrets masked' })
  async list(@Param('id') id: string): Promise<ProjectProviderListDto> {
    return { providers: (await this.providers.list(id)).map(presentProjectProvider) };
  }

  @Get('projects/:id/providers/:channel')
  @AdminAuth({ readers: true })
  @Operation('getProjectProvider', [404], { summary: 'A project’s own provider on a channel, secrets masked' })
  async get(@Param('id') id: string, @Param('channel') channel: string): Promise<ProjectProviderDto> {
    return presentProjectProvider(await this.providers.get(id, channel));
  }

  @Delete('projects/:id/providers/:channel')
  @AdminAuth()
  @Operation('deleteProjectProvider', [404], {
    summary: 'Remove a project’s own provider: its jobs use the instance’s provider again',
  })
  async delete(
    @Param('id') id: string,
    @Param('channel') channel: string,
    @CurrentOperator() by: { actor: string; ip?: string },
  ): Promise<DeletedProjectProviderDto> {
    await this.providers.delete(id, channel, by);
    return { success: true };
  }

  @Post('project-providers/reseal')
  @HttpCode(200)
  @AdminAuth()
  @Operation('resealProjectProviders', [422], {
    summary: 'Key rotation: re-encrypt every project’s credentials under the current NOTIFYD_SECRET_KEY',
  })
  async reseal(@CurrentOperator() by: { actor: string; ip?: string }): Promise<ResealResultDto> {
    return this.providers.reseal(by);
  }
}
