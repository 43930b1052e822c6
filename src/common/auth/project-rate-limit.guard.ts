import { type CanActivate, type ExecutionContext, HttpStatus, Injectable } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ApiError } from '../errors/api-error.js';
import type { ProjectRequest } from './project-auth.guard.js';

const WINDOW_MS = 60_000;
/** Process-wide: Nest may instantiate the guard once per module, the windows are shared. */
const windows = new Map<string, { start: number; count: number }>();

/**
 * Each project's `rate_limit_per_min` on its own API calls: a fixed one-minute window per
 * project, counted in this process (N API replicas allow N × the limit; a shared counter would
 * cost a database write per request). Over the limit: 429 with Retry-After.
 */
@Injectable()
export class ProjectRateLimitGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<ProjectRequest>();
    const project = request.project;
    if (!project) return true;
    const now = Date.now();
    let window = windows.get(project.id);
    if (!window || now - window.start >= WINDOW_MS) {
      window = { start: now, count: 0 };
      windows.set(project.id, window);
    }
    window.count++;
    if (window.count <= project.rateLimitPerMin) return true;
    const retryAfter = Math.ceil((window.start + WINDOW_MS - now) / 1000);
    void context.switchToHttp().getResponse<FastifyReply>().header('retry-after', String(retryAfter));
    throw new ApiError(
      HttpStatus.TOO_MANY_REQUESTS,
      'rate_limited',
      `Project '${project.id}' allows ${project.rateLimitPerMin} API requests per minute (rate_limit_per_min); retry in ${retryAfter} s, or raise the limit with PATCH /v1/admin/projects/${project.id}.`,
      { retry_after: retryAfter },
    );
  }
}
