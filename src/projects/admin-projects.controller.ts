import { Body, Param } from '@nestjs/common';
import { AdminController, CurrentOperator, ReaderAllowed } from './auth/auth.decorators.js';
import { Operation } from '../common/http/operation.decorator.js';
import {
  CreateProjectDto,
  CreateProjectResponseDto,
  ProjectListDto,
  ProjectResponseDto,
  RotateKeyResponseDto,
  SuccessDto,
  UpdateProjectDto,
} from './dto/project.dto.js';
import { presentProject } from './project.presenter.js';
import type { Actor } from '../domain/actor.js';
import { ProjectsService } from './projects.service.js';

@AdminController('v1/admin/projects', 'Admin: projects')
export class AdminProjectsController {
  constructor(private readonly projects: ProjectsService) {}

  @Operation('POST', [409, 422], { status: 201, summary: 'Create a project and show its API key once' })
  async createProject(@Body() body: CreateProjectDto, @CurrentOperator() by: Actor): Promise<CreateProjectResponseDto> {
    const { project, apiKey } = await this.projects.create(body, by);
    return {
      success: true,
      project: { id: project.id, api_key: apiKey },
      warning: `Store the api_key now: it cannot be shown again. Rotate it with POST /v1/admin/projects/${project.id}/rotate-key.`,
    };
  }

  @Operation('GET', [], 'List projects (keys shown as hints only)')
  @ReaderAllowed()
  async listProjects(): Promise<ProjectListDto> {
    return { projects: (await this.projects.list()).map(presentProject) };
  }

  @Operation('GET /:id', [404], 'Get one project')
  @ReaderAllowed()
  async getProject(@Param('id') id: string): Promise<ProjectResponseDto> {
    return { success: true, project: presentProject(await this.projects.get(id)) };
  }

  @Operation('PATCH /:id', [404, 422], 'Change a project’s name, channels, sender or settings (keys untouched)')
  async updateProject(
    @Param('id') id: string,
    @Body() body: UpdateProjectDto,
    @CurrentOperator() by: Actor,
  ): Promise<ProjectResponseDto> {
    return { success: true, project: presentProject(await this.projects.update(id, body, by)) };
  }

  @Operation('POST /:id/rotate-key', [404], {
    summary: 'Issue a new key; the previous one stays valid as the secondary key until revoked',
  })
  async rotateProjectKey(@Param('id') id: string, @CurrentOperator() by: Actor): Promise<RotateKeyResponseDto> {
    const key = await this.projects.rotateKey(id, by);
    return {
      success: true,
      id,
      new_api_key: key,
      note: `The previous key stays valid until POST /v1/admin/projects/${id}/revoke-secondary.`,
    };
  }

  @Operation('POST /:id/revoke-secondary', [404], 'Revoke the previous (secondary) key after a rotation')
  async revokeSecondaryProjectKey(@Param('id') id: string, @CurrentOperator() by: Actor): Promise<SuccessDto> {
    await this.projects.revokeSecondary(id, by);
    return { success: true };
  }

  @Operation('DELETE /:id', [404], 'Delete a project with its subscribers and jobs')
  async deleteProject(@Param('id') id: string, @CurrentOperator() by: Actor): Promise<SuccessDto> {
    await this.projects.delete(id, by);
    return { success: true };
  }
}
