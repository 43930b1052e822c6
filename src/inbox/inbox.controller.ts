import { Body, Controller, Param, Query, UseGuards } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Operation } from '../common/http/operation.decorator.js';
import { CurrentInbox, InboxAuth, type InboxPrincipal, refuseIfExpired } from './auth/inbox-auth.guard.js';
import {
  BulkInboxDto,
  BulkInboxResponseDto,
  InboxCountsDto,
  InboxListDto,
  InboxMessagePathDto,
  InboxMessageResponseDto,
  InboxPathDto,
  ListInboxQueryDto,
  StreamTicketResponseDto,
  UpdateMessageDto,
} from './dto/inbox.dto.js';
import { presentMessage } from './inbox.presenter.js';
import { InboxService } from './inbox.service.js';
import { StreamTicketLimitGuard } from './stream/stream-ticket-limit.guard.js';
import { StreamTickets } from './stream/stream-tickets.js';
import { ApiError } from '../common/errors/api-error.js';
import { SubscriberTokenVersions } from '../subscribers/subscriber-token-versions.js';

/**
 * A subscriber's inbox: a subscriber token for that subscriber, or the project key. Each route
 * also takes its path as a DTO (`_path`): the guard reads the subscriber from the raw params,
 * so this is what checks the id (and documents it).
 */
@ApiTags('Inbox')
@InboxAuth()
@Controller('v1/inbox/:subscriber_id')
export class InboxController {
  constructor(
    private readonly inbox: InboxService,
    private readonly tickets: StreamTickets,
    private readonly tokenVersions: SubscriberTokenVersions,
  ) {}

  @Operation('GET', [400, 422], 'A page of the inbox, newest first (unread, archived, topic, search, snoozed filters)')
  async listInbox(
    @CurrentInbox() p: InboxPrincipal,
    @Param() _path: InboxPathDto,
    @Query() query: ListInboxQueryDto,
  ): Promise<InboxListDto> {
    const { items, nextCursor, limit, ...legacy } = await this.inbox.list(p.project.id, p.subscriberId, query);
    return { items: items.map(presentMessage), next_cursor: nextCursor, limit, ...legacy };
  }

  @Operation('GET /unread-count', [400, 422], 'Unread and unseen counts (the badge)')
  async getInboxCounts(@CurrentInbox() p: InboxPrincipal, @Param() _path: InboxPathDto): Promise<InboxCountsDto> {
    const c = await this.inbox.counts(p.project.id, p.subscriberId);
    return { unread_count: c.unread, unseen_count: c.unseen, total: c.total };
  }

  @Operation('POST /read-all', [400, 422], 'Mark every unread message read (optionally one topic)')
  async markInboxRead(
    @CurrentInbox() p: InboxPrincipal,
    @Param() _path: InboxPathDto,
    @Body() body: BulkInboxDto,
  ): Promise<BulkInboxResponseDto> {
    return { success: true, updated: await this.inbox.bulk(p.project.id, p.subscriberId, 'read', body.topic) };
  }

  @Operation('POST /seen-all', [400, 422], 'Mark every message seen (the bell was opened)')
  async markInboxSeen(
    @CurrentInbox() p: InboxPrincipal,
    @Param() _path: InboxPathDto,
    @Body() body: BulkInboxDto,
  ): Promise<BulkInboxResponseDto> {
    return { success: true, updated: await this.inbox.bulk(p.project.id, p.subscriberId, 'seen', body.topic) };
  }

  @Operation('POST /archive-all', [400, 422], 'Archive every message (optionally one topic)')
  async archiveInbox(
    @CurrentInbox() p: InboxPrincipal,
    @Param() _path: InboxPathDto,
    @Body() body: BulkInboxDto,
  ): Promise<BulkInboxResponseDto> {
    return { success: true, updated: await this.inbox.bulk(p.project.id, p.subscriberId, 'archived', body.topic) };
  }

  @Operation('POST /stream-ticket', [400, 404, 422], 'A single-use, one-minute ticket to open the realtime stream')
  @UseGuards(StreamTicketLimitGuard)
  async createStreamTicket(
    @CurrentInbox() p: InboxPrincipal,
    @Param() _path: InboxPathDto,
  ): Promise<StreamTicketResponseDto> {
    // A ticket from a token expires with it at the latest: none from a token already past its exp (401).
    refuseIfExpired(p);
    // A ticket is a row: none for a subscriber the project does not have (404 names the fix).
    const version = await this.tokenVersions.current(p.project.id, p.subscriberId);
    if (version === undefined) throw ApiError.notFound('Subscriber', p.subscriberId);
    // Issued under the token's generation (a project key: the current one), so a revocation before its use refuses it.
    const generation = p.generation ?? { epoch: p.project.tokenEpoch, version };
    const { ticket, expiresInSeconds } = await this.tickets.issue(
      p.project.id,
      p.subscriberId,
      generation,
      p.expiresAt,
    );
    return {
      ticket,
      expires_in_seconds: expiresInSeconds,
      stream_url: `/v1/inbox/${encodeURIComponent(p.subscriberId)}/stream?ticket=${ticket}`,
    };
  }

  @Operation('PATCH /:message_id', [400, 404, 422], 'Mark one message read/unread, seen, archived, to-do, or snooze it')
  async updateInboxMessage(
    @CurrentInbox() p: InboxPrincipal,
    @Param() path: InboxMessagePathDto,
    @Body() body: UpdateMessageDto,
  ): Promise<InboxMessageResponseDto> {
    return {
      success: true,
      message: presentMessage(await this.inbox.update(p.project.id, p.subscriberId, path.message_id, body)),
    };
  }
}
