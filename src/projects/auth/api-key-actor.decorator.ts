import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { Actor } from '../../domain/actor.js';

/**
 * Who acts on a project-key route, for the audit log: the project key (`api_key`) and the
 * caller's address. The project-key counterpart of @CurrentOperator(), so a controller hands
 * its service an Actor without reading the request itself.
 */
export const ApiKeyActor = createParamDecorator((_: unknown, ctx: ExecutionContext): Actor => ({
  actor: 'api_key',
  ip: ctx.switchToHttp().getRequest<FastifyRequest>().ip,
}));
