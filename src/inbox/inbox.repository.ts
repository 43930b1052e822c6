import { Injectable } from '@nestjs/common';
import { Db } from '../database/db.js';
import type { InboxCounts, InboxEvent, MessageChange, MessageFilter, MessageRow } from './inbox.types.js';
import * as inbox from './sql/inbox.sql.js';
import * as stream from './sql/stream.sql.js';

/** All SQL of the inbox and its stream. */
@Injectable()
export class InboxRepository {
  constructor(private readonly db: Db) {}

  list(projectId: string, subscriberId: string, f: MessageFilter): Promise<MessageRow[]> {
    return this.db.rows<MessageRow>(inbox.LIST_MESSAGES, [
      projectId,
      subscriberId,
      f.archived,
      f.status,
      f.topic,
      f.search,
      f.snoozed,
      f.after?.createdAt ?? null,
      f.after?.id ?? null,
      f.limit,
      f.offset ?? 0,
    ]);
  }

  async counts(projectId: string, subscriberId: string): Promise<InboxCounts> {
    return (await this.db.one<InboxCounts>(inbox.COUNTS, [projectId, subscriberId]))!;
  }

  update(projectId: string, subscriberId: string, id: string, c: MessageChange): Promise<MessageRow | undefined> {
    return this.db.one<MessageRow>(inbox.UPDATE_MESSAGE, [
      projectId,
      subscriberId,
      id,
      c.read ?? null,
      c.seen ?? null,
      c.archived ?? null,
      c.isTodo ?? null,
      c.snoozedUntil !== undefined,
      c.snoozedUntil ?? null,
    ]);
  }

  async bulk(projectId: string, subscriberId: string, action: inbox.BulkAction, topic: string | null): Promise<number> {
    return (await this.db.one<{ n: number }>(inbox.bulkUpdate(action), [projectId, subscriberId, topic]))?.n ?? 0;
  }

  wakeSnoozed(limit: number): Promise<{ projectId: string; subscriberId: string }[]> {
    return this.db.rows(inbox.WAKE_SNOOZED, [limit]);
  }

  async readByJobs(projectId: string, jobIds: string[]): Promise<boolean | null> {
    const row = await this.db.one<{ read: boolean | null; found: number }>(inbox.READ_BY_JOBS, [projectId, jobIds]);
    return row && row.found > 0 ? Boolean(row.read) : null;
  }

  async head(projectId: string, subscriberId: string): Promise<bigint> {
    return BigInt((await this.db.one<{ head: string }>(stream.STREAM_HEAD, [projectId, subscriberId]))!.head);
  }

  eventsAfter(projectId: string, subscriberId: string, after: bigint, limit: number): Promise<InboxEvent[]> {
    return this.db.rows<InboxEvent>(stream.EVENTS_AFTER, [projectId, subscriberId, after.toString(), limit]);
  }

  async insertTicket(
    hash: string,
    projectId: string,
    subscriberId: string,
    ttlSecs: number,
    generation: { epoch: string; version: string },
    tokenExpiresAt: Date | undefined,
  ): Promise<void> {
    await this.db.exec(stream.INSERT_TICKET, [
      hash,
      projectId,
      subscriberId,
      ttlSecs,
      generation.epoch,
      generation.version,
      tokenExpiresAt ?? null,
    ]);
  }

  consumeTicket(
    hash: string,
  ): Promise<
    { projectId: string; subscriberId: string; epoch: string; version: string; tokenExpiresAt: Date | null } | undefined
  > {
    return this.db.one(stream.CONSUME_TICKET, [hash]);
  }

  async purge(retentionHours: number): Promise<void> {
    await this.db.exec(stream.PURGE_TICKETS);
    while ((await this.db.exec(stream.PURGE_EVENTS, [retentionHours, 5_000])) === 5_000);
  }
}
