import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AdminAuth, CurrentOperator } from './auth/auth.decorators.js';
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
import { type Actor, ProjectsService } from './projects.service.js';

@ApiTags('Admin: projects')
@Controller('v1/admin/projects')
export class AdminProjectsController {
  constructor(private readonly projects: ProjectsService) {}

  @Post()
  @HttpCode(201)
  @AdminAuth()
  @Operation('createProject', [409, 422], { summary: 'Create a project and show its API key once' })
  async createProject(@Body() body: CreateProjectDto, @CurrentOperator() by: Actor): Promise<CreateProjectResponseDto> {
    const { project, apiKey } = await this.projects.create(body, by);
    return {
      success: true,
      project: { id: project.id, api_key: apiKey },
      warning: `Store the api_key now: it cannot be shown again. Rotate it with POST /v1/admin/projects/${project.id}/rotate-key.`,
    };
  }

  @Get()
  @AdminAuth({ readers: true })
  @Operation('listProjects', [], { summary: 'List projects (keys shown as hints only)' })
  async listProjects(): Promise<ProjectListDto> {
    return { projects: (await this.projects.list()).map(presentProject) };
  }

  @Get(':id')
  @AdminAuth({ readers: true })
  @Operation('getProject', [404], { summary: 'Get one project' })
  async getProject(@Param('id') id: string): Promise<ProjectResponseDto> {
    return { success: true, project: presentProject(await this.projects.get(id)) };
  }

  @Patch(':id')
  @AdminAuth()
  @Operation('updateProject', [404, 422], {
    summary: 'Change a project’s name, channels, sender or settings (keys untouched)',
  })
  async updateProject(
    @Param('id') id: string,
    @Body() body: UpdateProjectDto,
    @CurrentOperator() by: Actor,
  ): Promise<ProjectResponseDto> {
    return { success: true, project: presentProject(await this.projects.update(id, body, by)) };
  }

  @Post(':id/rotate-key')
  @HttpCode(200)
  @AdminAuth()
  @Operation('rotateProjectKey', [404], {
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

  @Post(':id/revoke-secondary')
  @HttpCode(200)
  @AdminAuth()
  @Operation('revokeSecondaryProjectKey', [404], { summary: 'Revoke the previous (secondary) key after a rotation' })
  async revokeSecondaryProjectKey(@Param('id') id: string, @CurrentOperator() by: Actor): Promise<SuccessDto> {
    await this.projects.revokeSecondary(id, by);
    return { success: true };
  }

  @Delete(':id')
  @AdminAuth()
  @Operation('deleteProject', [404], { summary: 'Delete a project with its subscribers and jobs' })
  async deleteProject(@Param('id') id: string, @CurrentOperator() by: Actor): Promise<SuccessDto> {
    await this.projects.delete(id, by);
    return { success: true };
  }
}
