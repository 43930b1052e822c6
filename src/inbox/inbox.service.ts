import { Injectable } from '@nestjs/common';
import { ApiError } from '../common/errors/api-error.js';
import { decodeTimeIdCursor } from '../common/pagination/cursor.js';
import { timeIdPage } from '../common/pagination/cursor-page.js';
import type { ListInboxQueryDto, UpdateMessageDto } from './dto/inbox.dto.js';
import { InboxRepository } from './inbox.repository.js';
import type { InboxCounts, MessageChange, MessageRow } from './inbox.types.js';
import type { BulkAction } from './sql/inbox.sql.js';
import { InboxHub } from './stream/inbox-hub.js';
import { isUuid } from '../domain/ids.js';

/** `%` and `_` in a search are literal characters, not wildcards. */
const likePattern = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * One subscriber's inbox: list, counts, and changes. Every change writes its stream event in the
 * same statement and then signals the subscriber's streams (on every replica).
 */
@Injectable()
export class InboxService {
  constructor(
    private readonly repository: InboxRepository,
    private readonly hub: InboxHub,
  ) {}

  async list(
    projectId: string,
    subscriberId: string,
    q: ListInboxQueryDto,
  ): Promise<{ items: MessageRow[]; nextCursor: string | null; limit: number; offset?: number; total?: number }> {
    const limit = q.limit ?? 20;
    if (q.offset !== undefined && q.cursor)
      throw ApiError.unprocessable(
        'validation_failed',
        'offset and cursor cannot be combined: page with cursor (next_cursor of the previous page); offset is deprecated.',
      );
    // notifyd's `filter` (all | unread | todo) is an alias of `status`.
    const status = q.status ?? (q.filter && q.filter !== 'all' ? q.filter : undefined);
    const rows = await this.repository.list(projectId, subscriberId, {
      archived: q.archived === 'true' ? 'only' : q.archived === 'all' ? 'include' : 'exclude',
      status: (status as 'unread' | 'read' | 'unseen' | 'todo' | undefined) ?? null,
      topic: q.topic ?? null,
      search: q.q ? likePattern(q.q) : null,
      snoozed: q.snoozed === 'true',
      after: q.cursor ? decodeTimeIdCursor(q.cursor) : undefined,
      limit: limit + 1,
      offset: q.offset,
    });
    const page = timeIdPage(rows, limit);
    // notifyd 0.x's offset paging (deprecated): its answer also had the offset and the unarchived total.
    if (q.offset === undefined) return page;
    return { ...page, offset: q.offset, total: (await this.repository.counts(projectId, subscriberId)).total };
  }

  counts(projectId: string, subscriberId: string): Promise<InboxCounts> {
    return this.repository.counts(projectId, subscriberId);
  }

  async update(projectId: string, subscriberId: string, messageId: string, dto: UpdateMessageDto): Promise<MessageRow> {
    const change: MessageChange = { read: dto.read, seen: dto.seen, archived: dto.archived, isTodo: dto.is_todo };
    if (dto.snoozed_until !== undefined) {
      const until = dto.snoozed_until === null ? null : new Date(dto.snoozed_until);
      if (until && until.getTime() <= Date.now())
        throw ApiError.unprocessable(
          'validation_failed',
          'snoozed_until must be in the future (or null to end a snooze).',
        );
      change.snoozedUntil = until;
    }
    const row = isUuid(messageId)
      ? await this.repository.update(projectId, subscriberId, messageId, change)
      : undefined;
    if (!row) throw ApiError.notFound('Message', messageId.slice(0, 60));
    this.hub.changed(projectId, subscriberId);
    return row;
  }

  async bulk(projectId: string, subscriberId: string, action: BulkAction, topic: string | undefined): Promise<number> {
    const n = await this.repository.bulk(projectId, subscriberId, action, topic ?? null);
    if (n) this.hub.changed(projectId, subscriberId);
    return n;
  }
}
