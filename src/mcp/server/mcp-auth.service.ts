import { Inject, Injectable } from '@nestjs/common';
import { MAX_BATCH_SIZE } from '@modelcontextprotocol/sdk/server/requestBody.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { operatorRole } from '../../projects/auth/admin-auth.guard.js';
import { presentedKey } from '../../projects/auth/api-keys.js';
import { rateLimited, spendProjectBudget } from '../../projects/auth/project-rate-limit.guard.js';
import { ApiError } from '../../common/errors/api-error.js';
import type { AppConfig } from '../../config/app-config.js';
import { APP_CONFIG } from '../../config/config.module.js';
import { ProjectsService } from '../../projects/projects.service.js';
import { operatorScope, RateLimiter } from '../../projects/rate-limit/rate-limiter.service.js';
import type { McpCaller } from '../mcp-tool.js';

/**
 * Who calls POST /mcp: the admin key, the read-only key or a project key, as
 * `Authorization: Bearer` (or X-Api-Key). A browser Origin must be in MCP_ALLOWED_ORIGINS, so a
 * page on another site cannot drive a local notifyd through DNS rebinding.
 *
 * Each request then spends its caller's budget: a project key its project's rate_limit_per_min
 * (the same budget as its REST and inbox calls), an operator key MCP_OPERATOR_RATE_LIMIT_PER_MIN
 * of its own. A refused key spends nothing: unauthenticated requests cost a hash and a 401.
 * A JSON-RPC batch spends one unit per message it holds (requestCost), as many POSTs would.
 */
@Injectable()
export class McpAuthService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly projects: ProjectsService,
    private readonly limiter: RateLimiter,
  ) {}

  async authenticate(request: FastifyRequest, reply: FastifyReply): Promise<McpCaller> {
    const origin = request.headers.origin;
    if (origin !== undefined && !this.config.mcp.allowedOrigins.includes(origin)) {
      throw ApiError.forbidden(
        `Origin '${origin.slice(0, 100)}' may not call /mcp: add it to MCP_ALLOWED_ORIGINS, or call from a client that sends no Origin.`,
      );
    }
    const key = presentedKey(request.headers);
    if (!key)
      throw ApiError.unauthorized(
        'Missing key: send the admin key, the read-only key or a project key as Authorization: Bearer <key>.',
      );
    const cost = requestCost(request.body);
    const role = operatorRole(this.config, key);
    if (role) {
      for (let i = 0; i < cost; i++) this.spendOperatorBudget(role, reply);
      return { role, projectId: null, transport: 'http', ip: request.ip };
    }
    const project = await this.projects.authenticate(key);
    if (!project)
      throw ApiError.unauthorized('Invalid key: use ADMIN_API_KEY, READONLY_API_KEY or a project key (sk_…).');
    for (let i = 0; i < cost; i++) spendProjectBudget(this.limiter, project, reply);
    return { role: 'project', projectId: project.id, keyHint: project.createdBy, transport: 'http', ip: request.ip };
  }

  private spendOperatorBudget(role: 'admin' | 'readonly', reply: FastifyReply): void {
    const limit = this.config.mcp.operatorRateLimitPerMin;
    const decision = this.limiter.take(operatorScope(role), limit);
    if (decision.allowed) return;
    const key = role === 'admin' ? 'admin key' : 'read-only key';
    throw rateLimited(
      reply,
      decision.retryAfterSecs,
      `The ${key} allows ${limit} MCP requests per minute (MCP_OPERATOR_RATE_LIMIT_PER_MIN); retry in ${decision.retryAfterSecs} s, or raise the limit.`,
    );
  }
}

/**
 * Units of the budget one POST spends: one per JSON-RPC message. A batch (an array, which the
 * SDK runs message by message) of n tool calls is n requests, as n POSTs or n REST calls would
 * be; one unit each made a 100-message batch a 100-fold way around rate_limit_per_min. A batch
 * the SDK refuses unrun (empty, or over its MAX_BATCH_SIZE) costs one. A batch that outgrows
 * what is left is refused whole (429) and keeps spent the units that were left: it asked for them.
 */
export function requestCost(body: unknown): number {
  return Array.isArray(body) && body.length > 1 && body.length <= MAX_BATCH_SIZE ? body.length : 1;
}
