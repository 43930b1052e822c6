import { type CanActivate, type ExecutionContext, HttpStatus, Injectable } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import type { ProjectRef } from '../project.types.js';
import { projectScope, RateLimiter } from '../rate-limit/rate-limiter.service.js';
import { ApiError } from '../../common/errors/api-error.js';
import type { ProjectRequest } from './project-auth.guard.js';

/** A 429 with Retry-After: sets the header on the reply and returns the error (`code`) to throw. */
export function rateLimited(
  reply: FastifyReply,
  retryAfterSecs: number,
  message: string,
  code = 'rate_limited',
): ApiError {
  void reply.header('retry-after', String(retryAfterSecs));
  return new ApiError(HttpStatus.TOO_MANY_REQUESTS, code, message, { retry_after: retryAfterSecs });
}

/**
 * Spends one request of the project's `rate_limit_per_min`, or throws the 429. Every door a
 * project key or one of its subscriber tokens opens calls it: project routes (guard below), the
 * inbox routes, stream tickets and streams, and /mcp. Shared by the replicas (RateLimiter).
 */
export function spendProjectBudget(limiter: RateLimiter, project: ProjectRef, reply: FastifyReply): void {
  const decision = limiter.take(projectScope(project.id), project.rateLimitPerMin);
  if (decision.allowed) return;
  const retryAfter = decision.retryAfterSecs;
  throw rateLimited(
    reply,
    retryAfter,
    `Project '${project.id}' allows ${project.rateLimitPerMin} API requests per minute (rate_limit_per_min); retry in ${retryAfter} s, or raise the limit with PATCH /v1/admin/projects/${project.id}.`,
  );
}

/**
 * Each project's `rate_limit_per_min` on routes that resolved a project (request.project, set by
 * ProjectAuthGuard or InboxAuthGuard): a fixed one-minute window, aligned to the clock, counted
 * across replicas. Over the limit: 429 with Retry-After (the seconds left in the window).
 */
@Injectable()
export class ProjectRateLimitGuard implements CanActivate {
  constructor(private readonly limiter: RateLimiter) {}

  canActivate(context: ExecutionContext): boolean {
    const project = context.switchToHttp().getRequest<ProjectRequest>().project;
    if (project) spendProjectBudget(this.limiter, project, context.switchToHttp().getResponse<FastifyReply>());
    return true;
  }
}
