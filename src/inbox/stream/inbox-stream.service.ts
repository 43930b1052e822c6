import { Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../common/errors/api-error.js';
import { InboxAuthGuard, type InboxPrincipal } from '../auth/inbox-auth.guard.js';
import { StreamRevocations } from '../auth/stream-revocations.js';
import { looksLikeJwt } from '../auth/subscriber-tokens.js';
import { InboxRepository } from '../inbox.repository.js';
import { InboxHub } from './inbox-hub.js';
import { sseFrame, type StreamConnection } from './sse-frame.js';
import { StreamTickets } from './stream-tickets.js';

/** What EventSource should wait before reconnecting, sent once at the start of a stream. */
const RETRY_MS = 2_000;

/**
 * Opens a subscriber's SSE stream: authenticates (single-use ticket in the URL, or a header),
 * positions it (Last-Event-ID header or last_event_id parameter: replay from there; none: from
 * now), takes over the socket, and hands it to the hub. A position the database no longer
 * holds (retention, a reset) gets a `resync` event: refetch the list and counts.
 */
@Injectable()
export class InboxStreamService {
  constructor(
    private readonly tickets: StreamTickets,
    private readonly auth: InboxAuthGuard,
    private readonly revocations: StreamRevocations,
    private readonly repository: InboxRepository,
    private readonly hub: InboxHub,
  ) {}

  async open(request: FastifyRequest, reply: FastifyReply, subscriberId: string, ticket: string | undefined, lastEventParam: string | undefined): Promise<void> {
    const principal = ticket ? await this.byTicket(ticket, subscriberId) : await this.auth.authenticate(request.headers, subscriberId);
    const requested = parsePosition(headerValue(request.headers['last-event-id']) ?? lastEventParam);
    const projectId = principal.project.id;
    const head = await this.repository.head(projectId, subscriberId);
    let lastId = requested ?? head;
    let resync = false;
    if (requested !== undefined && requested !== head) {
      const [next] = requested < head ? await this.repository.eventsAfter(projectId, subscriberId, requested, 1) : [];
      // Ahead of the head, or the next event was purged: the client cannot be caught up by replay.
      if (!next || BigInt(next.id) !== requested + 1n) {
        resync = true;
        lastId = head;
      }
    }

    reply.hijack();
    const raw = reply.raw;
    raw.writeHead(200, {
      ...(reply.getHeaders() as Record<string, string>),
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-store, no-transform',
      'x-accel-buffering': 'no',
      connection: 'keep-alive',
    });
    raw.write(`retry: ${RETRY_MS}\n\n`);
    if (resync) raw.write(sseFrame(head.toString(), 'resync', { reason: 'events since your last id are no longer available: reload the list and counts', last_event_id: head.toString() }));
    const connection: StreamConnection = {
      projectId,
      subscriberId,
      lastId,
      write: (frame) => {
        if (!raw.writableEnded) raw.write(frame);
      },
      end: () => raw.end(),
    };
    // A stream opened with a subscriber token (or its ticket) ends when that token is revoked.
    const unwatch = principal.generation ? this.revocations.watch(connection, principal.generation) : undefined;
    const closed = () => {
      unwatch?.();
      this.hub.close(connection);
    };
    request.raw.on('close', closed);
    raw.on('error', closed);
    await this.hub.open(connection);
  }

  private async byTicket(ticket: string, subscriberId: string): Promise<InboxPrincipal> {
    if (looksLikeJwt(ticket)) {
      throw ApiError.unauthorized('Tokens are not accepted in URLs (they would end up in logs): get a single-use ticket from POST /v1/inbox/{subscriber_id}/stream-ticket.');
    }
    const owner = await this.tickets.consume(ticket);
    if (!owner) throw ApiError.unauthorized('Unknown, used or expired stream ticket: tickets work once, for a minute; get a new one.');
    if (owner.subscriberId !== subscriberId) throw ApiError.forbidden('This ticket was issued for another subscriber’s stream.');
    // Refused when the subscriber's tokens were revoked (or it or its project deleted) since the ticket was issued.
    const project = await this.auth.stillValid(owner.projectId, subscriberId, owner.generation);
    return { project, subscriberId, via: 'subscriber', generation: owner.generation };
  }
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function parsePosition(value: string | undefined): bigint | undefined {
  if (value === undefined || value === '') return undefined;
  if (!/^\d{1,18}$/.test(value)) throw ApiError.badRequest('invalid_last_event_id', 'Last-Event-ID must be an event id this stream sent (a number).');
  return BigInt(value);
}
