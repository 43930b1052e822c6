import { applyDecorators, createParamDecorator, type ExecutionContext, UseGuards } from '@nestjs/common';
import { ApiSecurity } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import type { ProjectRef } from '../../projects/project.types.js';
import { ApiErrors } from '../http/api-errors.decorator.js';
import { AdminAuthGuard, type OperatorRole, ReaderAllowed } from './admin-auth.guard.js';
import { ProjectAuthGuard, type ProjectRequest } from './project-auth.guard.js';
import { ProjectRateLimitGuard } from './project-rate-limit.guard.js';

/** A route called with a project key; the handler receives the project via @CurrentProject(). */
export const ProjectAuth = () =>
  applyDecorators(UseGuards(ProjectAuthGuard, ProjectRateLimitGuard), ApiSecurity('apiKey'), ApiSecurity('bearer'), ApiErrors(401, 429));

/** An admin route; `{ readers: true }` lets the read-only operator key call it too. */
export const AdminAuth = (options: { readers?: boolean } = {}) =>
  applyDecorators(
    ...(options.readers ? [ReaderAllowed()] : []),
    UseGuards(AdminAuthGuard),
    ApiSecurity('apiKey'),
    ApiSecurity('bearer'),
    ApiErrors(401, 403),
  );

export const CurrentProject = createParamDecorator((_: unknown, ctx: ExecutionContext): ProjectRef => {
  const project = ctx.switchToHttp().getRequest<ProjectRequest>().project;
  if (!project) throw new Error('CurrentProject used on a route without @ProjectAuth()');
  return project;
});

/** The operator behind an admin request and its address, for the audit log. */
export const CurrentOperator = createParamDecorator((_: unknown, ctx: ExecutionContext) => {
  const request = ctx.switchToHttp().getRequest<FastifyRequest & { operator?: OperatorRole }>();
  return { actor: request.operator ?? 'admin', ip: request.ip };
});
