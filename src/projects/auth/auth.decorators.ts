import {
  applyDecorators,
  type CanActivate,
  Controller,
  createParamDecorator,
  type ExecutionContext,
  type Type,
  UseGuards,
} from '@nestjs/common';
import { METHOD_METADATA } from '@nestjs/common/constants.js';
import { ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import type { ProjectRef } from '../project.types.js';
import { ApiErrors } from '../../common/http/api-errors.decorator.js';
import { AdminAuthGuard, type OperatorRole, ReaderAllowed } from './admin-auth.guard.js';
import { OperatorOrProjectAuthGuard } from './operator-or-project-auth.guard.js';
import { ProjectAuthGuard, type ProjectRequest } from './project-auth.guard.js';
import { ProjectRateLimitGuard } from './project-rate-limit.guard.js';

/**
 * A route that `guard` authenticates and that then spends the project's rate_limit_per_min
 * (ProjectRateLimitGuard, always after the guard that sets the project): the security schemes
 * it documents, in that order, and the guard's error responses besides the 429.
 */
export const RateLimitedAuth = (guard: Type<CanActivate>, errors: number[], schemes = ['apiKey', 'bearer']) =>
  applyDecorators(
    UseGuards(guard, ProjectRateLimitGuard),
    ...schemes.map((scheme) => ApiSecurity(scheme)),
    ApiErrors(...errors, 429),
  );

/** A route called with a project key; the handler receives the project via @CurrentProject(). */
export const ProjectAuth = () => RateLimitedAuth(ProjectAuthGuard, [401]);

/** The operator guard and its security schemes, on a route (AdminAuth) or a whole controller (AdminController). */
const adminGuarding = (options: { readers?: boolean }) => [
  ...(options.readers ? [ReaderAllowed()] : []),
  UseGuards(AdminAuthGuard),
  ApiSecurity('apiKey'),
  ApiSecurity('bearer'),
];

/** An admin route; `{ readers: true }` lets the read-only operator key call it too. */
export const AdminAuth = (options: { readers?: boolean } = {}) =>
  applyDecorators(...adminGuarding(options), ApiErrors(401, 403));

/**
 * A controller whose every route is an admin route (@AdminAuth), mounted at `path` and listed
 * under `tag` in the OpenAPI document. `{ readers: true }` lets the read-only key call all of its
 * routes; otherwise a route it may call says @ReaderAllowed(). The 401/403 responses are put on
 * each route rather than the class: a class's responses ignore a route's @ApiProduces, and
 * would move ErrorDto in the document's schema list.
 */
export const AdminController =
  (path: string, tag: string, options: { readers?: boolean } = {}): ClassDecorator =>
  (target) => {
    applyDecorators(ApiTags(tag), ...adminGuarding(options), Controller(path))(target);
    const routes = target.prototype as Record<string, unknown>;
    for (const name of Object.getOwnPropertyNames(routes)) {
      const descriptor = Object.getOwnPropertyDescriptor(routes, name)!;
      if (typeof descriptor.value === 'function' && Reflect.hasMetadata(METHOD_METADATA, descriptor.value))
        ApiErrors(401, 403)(routes, name, descriptor);
    }
  };

export { ReaderAllowed };

/** A read for operators (any project) and project keys (their own): the handler reads @CurrentCaller(). */
export const OperatorOrProjectAuth = () => RateLimitedAuth(OperatorOrProjectAuthGuard, [401, 403]);

/** Who called an OperatorOrProjectAuth route: the project (a project key) or null with the operator's role. */
export const CurrentCaller = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): { project: ProjectRef | null; operator: OperatorRole | null } => {
    const request = ctx.switchToHttp().getRequest<ProjectRequest & { operator?: OperatorRole }>();
    return { project: request.project ?? null, operator: request.operator ?? null };
  },
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
