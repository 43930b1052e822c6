import { Inject, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { operatorRole } from '../../common/auth/admin-auth.guard.js';
import { presentedKey } from '../../common/auth/api-keys.js';
import { ApiError } from '../../common/errors/api-error.js';
import type { AppConfig } from '../../config/app-config.js';
import { APP_CONFIG } from '../../config/config.module.js';
import { ProjectsService } from '../../projects/projects.service.js';
import type { McpCaller } from '../mcp-tool.js';

/**
 * Who calls POST /mcp: the admin key, the read-only key or a project key, as
 * `Authorization: Bearer` (or X-Api-Key). A browser Origin must be in MCP_ALLOWED_ORIGINS, so a
 * page on another site cannot drive a local notifyd through DNS rebinding.
 */
@Injectable()
export class McpAuthService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly projects: ProjectsService,
  ) {}

  async authenticate(request: FastifyRequest): Promise<McpCaller> {
    const origin = request.headers.origin;
    if (origin !== undefined && !this.config.mcp.allowedOrigins.includes(origin)) {
      throw ApiError.forbidden(`Origin '${origin.slice(0, 100)}' may not call /mcp: add it to MCP_ALLOWED_ORIGINS, or call from a client that sends no Origin.`);
    }
    const key = presentedKey(request.headers);
    if (!key) throw ApiError.unauthorized('Missing key: send the admin key, the read-only key or a project key as Authorization: Bearer <key>.');
    const role = operatorRole(this.config, key);
    if (role) return { role, projectId: null, transport: 'http', ip: request.ip };
    const project = await this.projects.authenticate(key);
    if (project) return { role: 'project', projectId: project.id, transport: 'http', ip: request.ip };
    throw ApiError.unauthorized('Invalid key: use ADMIN_API_KEY, READONLY_API_KEY or a project key (sk_…).');
  }
}
