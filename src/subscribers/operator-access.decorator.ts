import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { OperatorRequest } from '../projects/auth/admin-auth.guard.js';
import { operatorAccess } from './operator-view.js';

/** On an admin route: how much of a subscriber the calling operator key may read (see operatorAccess). */
export const CurrentOperatorAccess = createParamDecorator((_: unknown, ctx: ExecutionContext) =>
  operatorAccess(ctx.switchToHttp().getRequest<OperatorRequest>().operator),
);
