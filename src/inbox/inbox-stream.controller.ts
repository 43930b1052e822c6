import { Controller, Param, Query, Req, Res } from '@nestjs/common';
import { ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Operation } from '../common/http/operation.decorator.js';
import { ErrorDto } from '../common/http/error.dto.js';
import { InboxPathDto, StreamQueryDto } from './dto/inbox.dto.js';
import { InboxStreamService } from './stream/inbox-stream.service.js';

const EXAMPLE = [
  'retry: 2000',
  '',
  'id: 41',
  'event: counts',
  'data: {"unread_count":2,"unseen_count":1,"total":9}',
  '',
  'id: 42',
  'event: message.created',
  'data: {"message":{"id":"9b2d6a0e-1f3c-4e5a-8b7c-6d5e4f3a2b1c","title":"Order shipped","body":"Your order A-1042 is on its way.","is_read":false}}',
  '',
  ': ping',
  '',
].join('\n');

@ApiTags('Inbox')
@Controller('v1/inbox/:subscriber_id')
export class InboxStreamController {
  constructor(private readonly streams: InboxStreamService) {}

  @Operation('GET /stream', [400, 401, 403, 422], {
    summary: 'Realtime inbox (Server-Sent Events): new messages, changes, counts; Last-Event-ID replay',
    description:
      'Authenticate with `?ticket=` (POST …/stream-ticket; single use, 60 s, never past its token’s expiry) or an Authorization header; ' +
      'a stream opened with a subscriber token ends when the token expires (reconnect with a new one). Events: ' +
      '`message.created`, `message.updated` ({message}), `messages.read` / `messages.seen` / `messages.archived` ({count, topic}), ' +
      '`counts` ({unread_count, unseen_count, total}) and `resync` (reload: the events since your id are gone). Ids grow by one per event ' +
      'of this subscriber; reconnect with Last-Event-ID (or ?last_event_id=) to replay what you missed. A comment line every INBOX_HEARTBEAT_SECS. ' +
      'Opening a stream spends a request of the project’s rate_limit_per_min; a server holds at most INBOX_MAX_STREAMS_PER_SUBSCRIBER streams per subscriber ' +
      'and INBOX_MAX_STREAMS_PER_PROJECT per project (429 too_many_streams); a stream whose reader stops reading is closed (reconnect and replay). ' +
      "notifyd 0.x clients: `format=notifyd-0x` (the default when the ticket is passed as `?token=`, 0.x's parameter) sends 0.x's default `message` events " +
      'instead, with JSON `{type: "new_notification", notification}` or `{type: "count_update", unread_count}`.',
  })
  @ApiSecurity('bearer')
  @ApiResponse({
    status: 200,
    description: 'An open event stream',
    content: { 'text/event-stream': { schema: { type: 'string' }, example: EXAMPLE } },
  })
  @ApiResponse({
    status: 429,
    description:
      'Over the project’s rate_limit_per_min (rate_limited, with Retry-After), or too many open streams (too_many_streams)',
    type: ErrorDto,
    example: {
      error: 'too_many_streams',
      message:
        "Subscriber 'u1' already has the 5 open streams INBOX_MAX_STREAMS_PER_SUBSCRIBER allows on this server: close one (another tab or device) and retry, or raise the limit.",
    },
  })
  async streamInbox(
    @Param() path: InboxPathDto,
    @Query() query: StreamQueryDto,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    // A client that names its ticket `token` is a notifyd 0.x client (0.x's parameter): it gets 0.x's events unless it asks otherwise.
    const format = query.format ?? (query.token !== undefined && query.ticket === undefined ? 'notifyd-0x' : 'notifyd');
    await this.streams.open(
      request,
      reply,
      path.subscriber_id,
      query.ticket ?? query.token,
      query.last_event_id,
      format,
    );
  }
}
