import { Inject, Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { hashKey, presentedKey } from '../../projects/auth/api-keys.js';
import { spendProjectBudget } from '../../projects/auth/project-rate-limit.guard.js';
import { ApiError } from '../../common/errors/api-error.js';
import { startEventStream } from '../../common/http/event-stream.js';
import type { AppConfig } from '../../config/app-config.js';
import { APP_CONFIG } from '../../config/config.module.js';
import { RateLimiter } from '../../projects/rate-limit/rate-limiter.service.js';
import { InboxAuthGuard, type InboxPrincipal, refuseIfExpired } from '../auth/inbox-auth.guard.js';
import { StreamRevocations } from '../auth/stream-revocations.js';
import { looksLikeJwt } from '../auth/subscriber-tokens.js';
import { InboxRepository } from '../inbox.repository.js';
import { InboxHub } from './inbox-hub.js';
import { SseConnection } from './sse-connection.js';
import { forgetCredentials } from './forget-credentials.js';
import { endAtExpiry } from './stream-expiry.js';
import { sseFrame, streamKey } from './sse-frame.js';
import type { StreamFormat } from './stream-format.js';
import { StreamSlots } from './stream-slots.js';
import { StreamTickets } from './stream-tickets.js';

/** What EventSource should wait before reconnecting, sent once at the start of a stream. */
const RETRY_MS = 2_000;

/**
 * Opens a subscriber's SSE stream: authenticates (single-use ticket in the URL, or a header),
 * spends a request of the project's rate limit, takes one of the stream slots (StreamSlots: per
 * subscriber and per project, given back when the socket closes), positions it (Last-Event-ID
 * header or last_event_id parameter: replay from there; none: from now), takes over the socket,
 * and hands it to the hub. A position the database no longer holds (retention, a reset) gets a
 * `resync` event: refetch the list and counts. A stream opened with a subscriber token (or a
 * ticket minted from one) ends when that token expires; one opened with a project key does not.
 */
@Injectable()
export class InboxStreamService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly tickets: StreamTickets,
    private readonly auth: InboxAuthGuard,
    private readonly revocations: StreamRevocations,
    private readonly repository: InboxRepository,
    private readonly hub: InboxHub,
    private readonly limiter: RateLimiter,
    private readonly slots: StreamSlots,
  ) {}

  async open(
    request: FastifyRequest,
    reply: FastifyReply,
    subscriberId: string,
    ticket: string | undefined,
    lastEventParam: string | undefined,
    format: StreamFormat = 'notifyd',
  ): Promise<void> {
    const principal = ticket
      ? await this.byTicket(ticket, subscriberId)
      : await this.auth.authenticate(request.headers, subscriberId);
    refuseIfExpired(principal);
    spendProjectBudget(this.limiter, principal.project, reply);
    const requested = parsePosition(headerValue(request.headers['last-event-id']) ?? lastEventParam);
    const projectId = principal.project.id;
    const release = this.slots.take(projectId, subscriberId);
    let position: { lastId: bigint; head: bigint; resync: boolean };
    try {
      position = await this.position(projectId, subscriberId, requested);
    } catch (err) {
      release();
      throw err;
    }

    reply.hijack();
    const raw = reply.raw;
    if (raw.destroyed || !raw.socket || raw.socket.destroyed) return release(); // gone while its position was read
    startEventStream(reply, RETRY_MS);
    const { head } = position;
    if (position.resync && format === 'notifyd')
      raw.write(
        sseFrame(head.toString(), 'resync', {
          reason: 'events since your last id are no longer available: reload the list and counts',
          last_event_id: head.toString(),
        }),
      );
    const connection = new SseConnection(
      projectId,
      subscriberId,
      position.lastId,
      raw,
      this.config.inbox.streamMaxBufferBytes,
      format,
    );
    // A stream ends when what opened it stops being good: a subscriber token (or its ticket) revoked, a project key revoked.
    // A project key is watched by its hash, what the key lookup uses: the secret is not kept for the stream's life
    // (nor is it left in the request's headers, which live as long as the socket).
    const projectKey = principal.via === 'project' ? presentedKey(request.headers) : undefined;
    const credential = principal.generation
      ? { generation: principal.generation }
      : projectKey
        ? { keyHash: hashKey(projectKey) }
        : undefined;
    const unwatch = credential ? this.revocations.watch(connection, credential) : undefined;
    forgetCredentials(request.raw);
    // ... or expires (a subscriber token, or the one its ticket was minted from).
    const unschedule = principal.expiresAt ? endAtExpiry(connection, principal.expiresAt) : undefined;
    const closed = () => {
      unwatch?.();
      unschedule?.();
      release();
      this.hub.close(connection);
    };
    request.raw.on('close', closed);
    raw.on('close', closed);
    raw.on('error', closed);
    connection.onDrain(() => void this.hub.refresh(streamKey(projectId, subscriberId)));
    await this.hub.open(connection);
  }

  /**
   * Where the stream starts: the requested id when the events after it are all still there,
   * else the head with a resync (ahead of the head, or the next event was purged).
   */
  private async position(
    projectId: string,
    subscriberId: string,
    requested: bigint | undefined,
  ): Promise<{ lastId: bigint; head: bigint; resync: boolean }> {
    const head = await this.repository.head(projectId, subscriberId);
    if (requested === undefined || requested === head) return { lastId: requested ?? head, head, resync: false };
    const [next] = requested < head ? await this.repository.eventsAfter(projectId, subscriberId, requested, 1) : [];
    if (!next || BigInt(next.id) !== requested + 1n) return { lastId: head, head, resync: true };
    return { lastId: requested, head, resync: false };
  }

  private async byTicket(ticket: string, subscriberId: string): Promise<InboxPrincipal> {
    if (looksLikeJwt(ticket)) {
      throw ApiError.unauthorized(
        'Tokens are not accepted in URLs (they would end up in logs): get a single-use ticket from POST /v1/inbox/{subscriber_id}/stream-ticket.',
      );
    }
    const owner = await this.tickets.consume(ticket);
    if (!owner)
      throw ApiError.unauthorized(
        'Unknown, used or expired stream ticket: tickets work once, for a minute; get a new one.',
      );
    if (owner.subscriberId !== subscriberId)
      throw ApiError.forbidden('This ticket was issued for another subscriber’s stream.');
    // Refused when the subscriber's tokens were revoked (or it or its project deleted) since the ticket was issued.
    const project = await this.auth.stillValid(owner.projectId, subscriberId, owner.generation);
    return { project, subscriberId, via: 'subscriber', generation: owner.generation, expiresAt: owner.tokenExpiresAt };
  }
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function parsePosition(value: string | undefined): bigint | undefined {
  if (value === undefined || value === '') return undefined;
  if (!/^\d{1,18}$/.test(value))
    throw ApiError.badRequest(
      'invalid_last_event_id',
      'Last-Event-ID must be an event id this stream sent (a number).',
    );
  return BigInt(value);
}
