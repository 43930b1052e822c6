import { Req, Res } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AdminController } from '../../projects/auth/auth.decorators.js';
import { ErrorDto } from '../../common/http/error.dto.js';
import { ADMIN_EVENTS_MAX_STREAMS, AdminEventsService } from './admin-events.service.js';
import { Operation } from '../../common/http/operation.decorator.js';

const EXAMPLE = [
  'retry: 3000',
  '',
  'id: 7',
  'event: lanes',
  'data: {"lanes":["email:resend"]}',
  '',
  'id: 8',
  'event: digest',
  'data: {}',
  '',
  ': ping',
  '',
].join('\n');

@AdminController('v1/admin/events', 'Admin: digest', { readers: true })
export class AdminEventsController {
  constructor(private readonly events: AdminEventsService) {}

  @Operation('GET', [], {
    summary:
      'Server-Sent Events telling an operator view what to reload: `lanes` (a pause set or lifted) and `digest` (lanes changed, jobs enqueued)',
    description:
      'A hint, never data: on an event, read GET /v1/admin/lanes or /v1/admin/digest again. Changes are coalesced to at most one event of each kind ' +
      'per second; a comment line every 25 s keeps the connection open. Fed by the replicas’ LISTEN/NOTIFY signals: with SIGNALS_ENABLED=false the ' +
      `stream stays silent, so readers keep a slow fallback poll. At most ${ADMIN_EVENTS_MAX_STREAMS} streams per server (429 too_many_streams).`,
  })
  @ApiResponse({
    status: 200,
    description: 'An open event stream',
    content: { 'text/event-stream': { schema: { type: 'string' }, example: EXAMPLE } },
  })
  @ApiResponse({ status: 429, description: 'Too many admin event streams on this server', type: ErrorDto })
  streamAdminEvents(@Req() request: FastifyRequest, @Res() reply: FastifyReply): void {
    this.events.attach(request, reply);
  }
}
