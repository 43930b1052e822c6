import { Injectable } from '@nestjs/common';
import { decodeCursor, encodeCursor } from '../common/pagination/cursor.js';
import { ApiError } from '../common/errors/api-error.js';
import type { ListSubscribersQueryDto, SubscriberDto, UpsertSubscriberDto } from './dto/subscriber.dto.js';
import type { SubscriberAddresses, SubscriberProfile, SubscriberRow } from './subscriber.types.js';
import { SubscriberTokenVersions } from './subscriber-token-versions.js';
import { MERGED_DATA_TOO_LARGE } from './data-limit.js';
import { type SubscriberUpsert, SubscribersRepository } from './subscribers.repository.js';

/** `%` and `_` in a search are literal characters, not wildcards. */
const likePattern = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

@Injectable()
export class SubscribersService {
  constructor(
    private readonly repository: SubscribersRepository,
    private readonly tokenVersions: SubscriberTokenVersions,
  ) {}

  /** true when created; 422 when the data merged into the stored one would be over SUBSCRIBER_DATA_MAX_BYTES. */
  async upsert(projectId: string, dto: UpsertSubscriberDto): Promise<boolean> {
    const created = await this.repository.upsert(projectId, toSubscriberUpsert(dto));
    if (created === null)
      throw ApiError.unprocessable('validation_failed', MERGED_DATA_TOO_LARGE, { details: [MERGED_DATA_TOO_LARGE] });
    return created;
  }

  async get(projectId: string, id: string): Promise<SubscriberRow> {
    const subscriber = await this.repository.find(projectId, id);
    if (!subscriber) throw ApiError.notFound('Subscriber', id);
    return subscriber;
  }

  /**
   * One page by id. notifyd 0.x's `offset` (deprecated) skips rows instead of a cursor, and its
   * answer also carries the offset and the total matching the search, as 0.x's did.
   */
  async list(
    projectId: string,
    query: ListSubscribersQueryDto,
  ): Promise<{ items: SubscriberRow[]; nextCursor: string | null; limit: number; offset?: number; total?: number }> {
    if (query.offset !== undefined && query.cursor) {
      throw ApiError.unprocessable(
        'validation_failed',
        'offset and cursor cannot be combined: page with cursor (next_cursor of the previous page); offset is deprecated.',
      );
    }
    const limit = query.limit ?? 50;
    const pattern = query.q ? likePattern(query.q) : undefined;
    const rows = await this.repository.list(
      projectId,
      decodeCursor(query.cursor),
      pattern,
      limit + 1,
      query.offset ?? 0,
    );
    const items = rows.slice(0, limit);
    const page = { items, nextCursor: rows.length > limit ? encodeCursor(items[items.length - 1].id) : null, limit };
    if (query.offset === undefined) return page;
    return { ...page, offset: query.offset, total: await this.repository.count(projectId, pattern) };
  }

  /**
   * The subscribers a recipient trace names, in one project or every project (null): by id, by
   * email or by phone (each optional), at most `limit`.
   */
  findForTrace(
    projectId: string | null,
    by: { id: string | null; email: string | null; phone: string | null },
    limit = 20,
  ): Promise<(SubscriberAddresses & { projectId: string })[]> {
    return this.repository.findForTrace(projectId, by, limit);
  }

  /** Deletes the subscriber; its subscriber tokens stop working (a re-created subscriber gets a new token version). */
  async delete(projectId: string, id: string): Promise<void> {
    if (!(await this.repository.delete(projectId, id))) throw ApiError.notFound('Subscriber', id);
    this.tokenVersions.changed(projectId, id);
  }

  /** Ends every subscriber token and stream ticket of the subscriber; tokens minted afterwards work. */
  async revokeTokens(projectId: string, id: string): Promise<void> {
    if (!(await this.tokenVersions.revoke(projectId, id))) throw ApiError.notFound('Subscriber', id);
  }

  /** Subscribers' addresses by id, for enqueue (one query for a whole batch). */
  async findAddresses(projectId: string, ids: string[]): Promise<Map<string, SubscriberAddresses>> {
    if (ids.length === 0) return new Map();
    const rows = await this.repository.findAddresses(projectId, ids);
    return new Map(rows.map((r) => [r.id, r]));
  }

  /** Subscribers' profiles by id, for templates (one query for a whole claimed batch). */
  async findProfiles(projectId: string, ids: string[]): Promise<Map<string, SubscriberProfile>> {
    if (ids.length === 0) return new Map();
    const rows = await this.repository.findProfiles(projectId, ids);
    return new Map(rows.map((r) => [r.id, r]));
  }
}

/** What an upsert writes: only the fields given (a null clears one), data to merge. */
export function toSubscriberUpsert(dto: UpsertSubscriberDto): SubscriberUpsert {
  const fields: SubscriberUpsert['fields'] = {};
  if (dto.email !== undefined) fields.email = dto.email?.trim() ?? null;
  if (dto.phone !== undefined) fields.phone = dto.phone;
  if (dto.first_name !== undefined) fields.firstName = dto.first_name;
  if (dto.last_name !== undefined) fields.lastName = dto.last_name;
  if (dto.locale !== undefined) fields.locale = dto.locale;
  if (dto.timezone !== undefined) fields.timezone = dto.timezone;
  return { id: dto.id, fields, data: dto.data ?? {} };
}

export function presentSubscriber(s: SubscriberRow): SubscriberDto {
  return {
    id: s.id,
    email: s.email,
    phone: s.phone,
    first_name: s.firstName,
    last_name: s.lastName,
    locale: s.locale,
    timezone: s.timezone,
    data: s.data,
    created_at: s.createdAt.toISOString(),
    updated_at: s.updatedAt.toISOString(),
  };
}
