import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { presentedKey, secretsEqual } from '../projects/auth/api-keys.js';
import type { OperatorRequest } from '../projects/auth/admin-auth.guard.js';
import { ApiError } from '../common/errors/api-error.js';
import { ConsoleSessionsService } from './console-sessions.service.js';
import { CSRF_HEADER, csrfTokenFor, sessionTokenFrom } from './session-cookie.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Global guard: a request without a key but with the console's cookie is authenticated by its
 * session, which AdminAuthGuard then treats as the key it was made from (same routes, same
 * read-only refusals). A change (any method but GET/HEAD/OPTIONS) made with the cookie must
 * carry the session's CSRF token in X-CSRF-Token, else 403. A request that presents a key is
 * left alone: the cookie adds nothing to it.
 */
@Injectable()
export class ConsoleSessionGuard implements CanActivate {
  constructor(private readonly sessions: ConsoleSessionsService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<OperatorRequest>();
    if (presentedKey(request.headers)) return true;
    const token = sessionTokenFrom(request.headers.cookie);
    if (!token) return true;
    const session = await this.sessions.resolve(token);
    if (!session) {
      request.consoleSession = 'ended';
      return true;
    }
    if (!SAFE_METHODS.has(request.method)) {
      const header = request.headers[CSRF_HEADER];
      const presented = Array.isArray(header) ? header[0] : header;
      if (!presented || !secretsEqual(presented, csrfTokenFor(token))) {
        throw new ApiError(
          403,
          'csrf_token_invalid',
          `A change made with the console's session needs its CSRF token in the ${CSRF_HEADER} header (from GET /console/session).`,
        );
      }
    }
    request.consoleSession = session.role;
    return true;
  }
}
