import { type CanActivate, createParamDecorator, type ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { presentedKey } from '../../projects/auth/api-keys.js';
import { ApiError } from '../../common/errors/api-error.js';
import { RateLimitedAuth } from '../../projects/auth/auth.decorators.js';
import type { ProjectRef } from '../../projects/project.types.js';
import { ProjectsService } from '../../projects/projects.service.js';
import { SubscriberTokenVersions } from '../../subscribers/subscriber-token-versions.js';
import { looksLikeJwt, SubscriberTokens, type TokenGeneration } from './subscriber-tokens.js';

/** Whose inbox a request reads, and who is asking. */
export interface InboxPrincipal {
  project: ProjectRef;
  subscriberId: string;
  /** `subscriber` with a subscriber token; `project` with the project key (a backend). */
  via: 'subscriber' | 'project';
  /** A subscriber token's (or stream ticket's) generation, which a revocation ends (streams re-check it). */
  generation?: TokenGeneration;
  /**
   * When the subscriber token expires (for a ticket: the token it was minted from). Absent for a
   * project key, and for a ticket minted with one.
   */
  expiresAt?: Date;
}

const MINT_AGAIN = 'get a new one from POST /v1/auth/subscriber-token.';

type InboxRequest = FastifyRequest & { inbox?: InboxPrincipal; project?: ProjectRef; params: Record<string, string> };

/**
 * Inbox routes take a subscriber token (`Authorization: Bearer <jwt>`, its `sub` must be the
 * path's subscriber: another subscriber's inbox is 403) or the project key (any subscriber of
 * the project; another project's subscriber simply has an empty inbox).
 */
@Injectable()
export class InboxAuthGuard implements CanActivate {
  constructor(
    private readonly tokens: SubscriberTokens,
    private readonly projects: ProjectsService,
    private readonly versions: SubscriberTokenVersions,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<InboxRequest>();
    request.inbox = await this.authenticate(request.headers, request.params.subscriber_id);
    // Subscriber tokens spend their project's rate_limit_per_min (ProjectRateLimitGuard, next).
    request.project = request.inbox.project;
    return true;
  }

  /** Shared with the stream, which also accepts a ticket instead. */
  async authenticate(
    headers: Record<string, string | string[] | undefined>,
    subscriberId: string,
  ): Promise<InboxPrincipal> {
    const key = presentedKey(headers);
    if (!key)
      throw ApiError.unauthorized(
        'Missing credentials: send a subscriber token (Authorization: Bearer <jwt>) or the project key.',
      );
    if (looksLikeJwt(key)) {
      const claims = await this.tokens.verify(key);
      if (!claims) throw ApiError.unauthorized(`Invalid or expired subscriber token: ${MINT_AGAIN}`);
      if (claims.subscriberId !== subscriberId)
        throw ApiError.forbidden('Token subscriber mismatch: this token opens only its own subscriber’s inbox.');
      const project = await this.stillValid(claims.projectId, subscriberId, claims.generation);
      return { project, subscriberId, via: 'subscriber', generation: claims.generation, expiresAt: claims.expiresAt };
    }
    const project = await this.projects.authenticate(key);
    if (!project)
      throw ApiError.unauthorized('Invalid API key: it is unknown, revoked, or belongs to a deleted project.');
    return { project, subscriberId, via: 'project' };
  }

  /**
   * The project, when a token (or ticket) of this generation is still good: the project was not
   * deleted and created again (epoch), the subscriber was not deleted or its tokens revoked
   * (version). The version read is cached (SubscriberTokenVersions); the project read was here before.
   */
  async stillValid(projectId: string, subscriberId: string, generation: TokenGeneration): Promise<ProjectRef> {
    const project = await this.projects.get(projectId).catch(() => undefined);
    if (!project || project.tokenEpoch !== generation.epoch)
      throw ApiError.unauthorized(`Subscriber token no longer valid: its project was deleted; ${MINT_AGAIN}`);
    const version = await this.versions.current(projectId, subscriberId);
    if (version === undefined)
      throw ApiError.unauthorized(`Subscriber token no longer valid: its subscriber was deleted; ${MINT_AGAIN}`);
    if (version !== generation.version)
      throw ApiError.unauthorized(`Subscriber token revoked (POST /v1/subscribers/{id}/tokens/revoke): ${MINT_AGAIN}`);
    return project;
  }
}

/**
 * A route of a subscriber's inbox (subscriber token or project key), counted in the project's
 * rate limit. Its bearer scheme comes first: a subscriber token is a bearer token.
 */
export const InboxAuth = () => RateLimitedAuth(InboxAuthGuard, [401, 403], ['bearer', 'apiKey']);

export const CurrentInbox = createParamDecorator((_: unknown, ctx: ExecutionContext): InboxPrincipal => {
  const principal = ctx.switchToHttp().getRequest<InboxRequest>().inbox;
  if (!principal) throw new Error('CurrentInbox used on a route without @InboxAuth()');
  return principal;
});

/**
 * Refuses a subscriber token past its `exp` for what would outlive the request (a stream, a
 * ticket), although REST still takes it within verify's 30 s of clock tolerance: a stream from
 * it would end at once (it ends at `exp`), and the client would reconnect in a loop until the
 * tolerance ran out. A project key (no `expiresAt`) passes.
 */
export function refuseIfExpired(principal: InboxPrincipal, now = Date.now()): void {
  if (principal.expiresAt && principal.expiresAt.getTime() <= now)
    throw ApiError.unauthorized(`Subscriber token expired: ${MINT_AGAIN}`);
}
