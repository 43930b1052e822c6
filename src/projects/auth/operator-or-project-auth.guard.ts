import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { AppConfig } from '../../config/app-config.js';
import { APP_CONFIG } from '../../config/config.module.js';
import { ProjectsService } from '../projects.service.js';
import { ApiError } from '../../common/errors/api-error.js';
import { authorizeConsoleSession, operatorRole, type OperatorRequest } from './admin-auth.guard.js';
import { presentedKey } from './api-keys.js';
import type { ProjectRequest } from './project-auth.guard.js';

/**
 * Reads that answer an operator for any project and a project key for its own (the recipient
 * trace): the admin or read-only key, the console's session, or a project key. Sets
 * `request.operator` or `request.project`; ProjectRateLimitGuard, after it, spends the
 * project's budget when a project key called.
 */
@Injectable()
export class OperatorOrProjectAuthGuard implements CanActivate {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly projects: ProjectsService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<OperatorRequest & ProjectRequest>();
    const key = presentedKey(request.headers);
    if (!key && request.consoleSession) {
      request.operator = authorizeConsoleSession(this.config, request.consoleSession, true);
      return true;
    }
    if (!key)
      throw ApiError.unauthorized(
        'Missing key: send a project key, the admin key or the read-only key as X-Api-Key or Authorization: Bearer.',
      );
    const role = this.config.auth.adminApiKey ? operatorRole(this.config, key) : undefined;
    if (role) {
      request.operator = role;
      return true;
    }
    const project = await this.projects.authenticate(key);
    if (!project) throw ApiError.unauthorized('Invalid key: it is neither a project key nor an operator key.');
    request.project = project;
    return true;
  }
}
