import { type CanActivate, type ExecutionContext, Inject, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import type { AppConfig } from '../../config/app-config.js';
import { APP_CONFIG } from '../../config/config.module.js';
import { ProjectsService } from '../projects.service.js';
import { ApiError } from '../../common/errors/api-error.js';
import { presentedKey, secretsEqual } from './api-keys.js';

export const READER_ALLOWED = 'notifyd:reader-allowed';
/** Marks an admin route that the read-only operator key may call too. */
export const ReaderAllowed = () => SetMetadata(READER_ALLOWED, true);

export type OperatorRole = 'admin' | 'readonly';

/**
 * What the console's session guard (src/console/) found on a request that carried no key but
 * the console's cookie: the role the session was made from, or 'ended' for a cookie whose
 * session expired, was signed out, or outlived its key.
 */
export type ConsoleSessionState = OperatorRole | 'ended';
export type OperatorRequest = FastifyRequest & { operator?: OperatorRole; consoleSession?: ConsoleSessionState };

/** Who an operator key belongs to, or undefined when it is neither configured key. */
export function operatorRole(config: AppConfig, key: string | undefined): OperatorRole | undefined {
  if (!key) return undefined;
  if (config.auth.adminApiKey && secretsEqual(key, config.auth.adminApiKey)) return 'admin';
  if (config.auth.readonlyApiKey && secretsEqual(key, config.auth.readonlyApiKey)) return 'readonly';
  return undefined;
}

/**
 * The admin-route decision, shared by AdminAuthGuard (api replica) and WorkerHealthServer
 * (worker replica, plain node:http) so both answer a key with the same status and body:
 * 503 admin disabled, 401 no or unknown key, 403 a project key or a read-only key where
 * readers are not allowed. Throws ApiError; resolves to the caller's role.
 */
export async function authorizeOperator(
  config: AppConfig,
  key: string | undefined,
  projects: Pick<ProjectsService, 'authenticate'>,
  readerAllowed: boolean,
): Promise<OperatorRole> {
  if (!config.auth.adminApiKey) {
    throw ApiError.unavailable(
      'admin_disabled',
      'Admin routes are disabled on this instance: set ADMIN_API_KEY and restart.',
    );
  }
  if (!key) throw ApiError.unauthorized('Missing admin key: send it as X-Api-Key or Authorization: Bearer.');
  const role = operatorRole(config, key);
  if (role) return authorizeRole(role, readerAllowed);
  // A valid project key is an identity without this right (403), not an unknown key (401).
  if (await projects.authenticate(key)) {
    throw ApiError.forbidden(
      'A project key cannot call admin routes: use the admin key (ADMIN_API_KEY), or the read-only key (READONLY_API_KEY) for reads.',
    );
  }
  throw ApiError.unauthorized('Invalid admin key.');
}

/** The same decision for a console session, which stands for the key it was made from. */
export function authorizeConsoleSession(
  config: AppConfig,
  session: ConsoleSessionState,
  readerAllowed: boolean,
): OperatorRole {
  if (!config.auth.adminApiKey) {
    throw ApiError.unavailable(
      'admin_disabled',
      'Admin routes are disabled on this instance: set ADMIN_API_KEY and restart.',
    );
  }
  if (session === 'ended')
    throw ApiError.unauthorized(
      'The console session has ended (signed out, expired, or its key changed): sign in again at /console.',
    );
  return authorizeRole(session, readerAllowed);
}

function authorizeRole(role: OperatorRole, readerAllowed: boolean): OperatorRole {
  if (role === 'readonly' && !readerAllowed) {
    throw ApiError.forbidden('Read-only key: this action needs the admin key (ADMIN_API_KEY).');
  }
  return role;
}

/** Admin routes: the admin key, or the read-only key where the route is marked @ReaderAllowed. */
@Injectable()
export class AdminAuthGuard implements CanActivate {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly reflector: Reflector,
    private readonly projects: ProjectsService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<OperatorRequest>();
    const readerAllowed =
      this.reflector.getAllAndOverride<boolean>(READER_ALLOWED, [context.getHandler(), context.getClass()]) ?? false;
    const key = presentedKey(request.headers);
    // A key in the request wins; without one, the console's session (set by its guard) stands for its key.
    request.operator =
      !key && request.consoleSession
        ? authorizeConsoleSession(this.config, request.consoleSession, readerAllowed)
        : await authorizeOperator(this.config, key, this.projects, readerAllowed);
    return true;
  }
}
