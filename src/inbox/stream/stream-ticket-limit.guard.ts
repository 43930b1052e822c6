import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { rateLimited } from '../../projects/auth/project-rate-limit.guard.js';
import { WindowCounts } from '../../common/rate-limit/window-counts.js';
import type { AppConfig } from '../../config/app-config.js';
import { APP_CONFIG } from '../../config/config.module.js';
import type { InboxPrincipal } from '../auth/inbox-auth.guard.js';

/**
 * INBOX_STREAM_TICKETS_PER_MIN per subscriber, counted in this process (after InboxAuth, whose
 * request already spent the project's shared rate_limit_per_min). A page that loops on
 * reconnecting gets a 429 with Retry-After instead of a ticket row per attempt. Nest keeps one
 * instance of a guard per module, so the counts are the module's.
 */
@Injectable()
export class StreamTicketLimitGuard implements CanActivate {
  private readonly counts = new WindowCounts();

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  canActivate(context: ExecutionContext): boolean {
    const principal = context.switchToHttp().getRequest<FastifyRequest & { inbox?: InboxPrincipal }>().inbox;
    if (!principal) return true;
    const limit = this.config.inbox.streamTicketsPerMin;
    const decision = this.counts.take(`${principal.project.id}/${principal.subscriberId}`, limit, Date.now());
    if (decision.allowed) return true;
    throw rateLimited(
      context.switchToHttp().getResponse<FastifyReply>(),
      decision.retryAfterSecs,
      `Subscriber '${principal.subscriberId}' may get ${limit} stream tickets per minute (INBOX_STREAM_TICKETS_PER_MIN); retry in ${decision.retryAfterSecs} s.`,
    );
  }
}
