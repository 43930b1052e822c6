import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { ProjectRef } from '../project.types.js';
import { ProjectsService } from '../projects.service.js';
import { ApiError } from '../../common/errors/api-error.js';
import { presentedKey } from './api-keys.js';

export type ProjectRequest = FastifyRequest & { project?: ProjectRef };

/** Project routes: resolves the project from its key; every query downstream is scoped by it. */
@Injectable()
export class ProjectAuthGuard implements CanActivate {
  constructor(private readonly projects: ProjectsService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<ProjectRequest>();
    const key = presentedKey(request.headers);
    if (!key)
      throw ApiError.unauthorized('Missing API key: send your project key as X-Api-Key or Authorization: Bearer.');
    const project = await this.projects.authenticate(key);
    if (!project)
      throw ApiError.unauthorized('Invalid API key: it is unknown, revoked, or belongs to a deleted project.');
    request.project = project;
    return true;
  }
}
