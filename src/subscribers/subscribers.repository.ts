import { Injectable } from '@nestjs/common';
import { Db } from '../database/db.js';
import type { SubscriberAddresses, SubscriberProfile, SubscriberRow } from './subscriber.types.js';
import { SUBSCRIBER_DATA_MAX_BYTES } from './data-limit.js';
import * as sql from './subscribers.sql.js';

export interface SubscriberUpsert {
  id: string;
  /** Only the keys present are written; a present null clears the column. */
  fields: Partial<Record<'email' | 'phone' | 'firstName' | 'lastName' | 'locale' | 'timezone', string | null>>;
  data: Record<string, unknown>;
}

@Injectable()
export class SubscribersRepository {
  constructor(private readonly db: Db) {}

  /** true when created, false when updated, null when refused: its data, alone or merged, is over SUBSCRIBER_DATA_MAX_BYTES. */
  async upsert(projectId: string, s: SubscriberUpsert): Promise<boolean | null> {
    const col = (key: keyof SubscriberUpsert['fields']) => [key in s.fields, s.fields[key] ?? null];
    const row = await this.db.one<{ created: boolean }>(sql.UPSERT_SUBSCRIBER, [
      projectId,
      s.id,
      ...col('email'),
      ...col('phone'),
      ...col('firstName'),
      ...col('lastName'),
      ...col('locale'),
      ...col('timezone'),
      s.data,
      SUBSCRIBER_DATA_MAX_BYTES,
    ]);
    return row ? row.created : null;
  }

  /**
   * Many upserts in one statement; ids must be unique (fold repeats first). `tooLarge`: the ids
   * not written because their data, alone or merged, is over SUBSCRIBER_DATA_MAX_BYTES.
   */
  async bulkUpsert(
    projectId: string,
    subscribers: SubscriberUpsert[],
  ): Promise<{ created: number; updated: number; tooLarge: string[] }> {
    const byId = Object.fromEntries(subscribers.map((s) => [s.id, { ...columnsOf(s.fields), data: s.data }]));
    const row = await this.db.one<{ created: number; updated: number; tooLarge: string[] }>(
      sql.BULK_UPSERT_SUBSCRIBERS,
      [projectId, byId, SUBSCRIBER_DATA_MAX_BYTES],
    );
    return { created: row?.created ?? 0, updated: row?.updated ?? 0, tooLarge: row?.tooLarge ?? [] };
  }

  find(projectId: string, id: string): Promise<SubscriberRow | undefined> {
    return this.db.one<SubscriberRow>(sql.FIND_SUBSCRIBER, [projectId, id]);
  }

  list(
    projectId: string,
    after: string | undefined,
    pattern: string | undefined,
    limit: number,
    offset = 0,
  ): Promise<SubscriberRow[]> {
    return this.db.rows<SubscriberRow>(sql.LIST_SUBSCRIBERS, [
      projectId,
      after ?? null,
      pattern ?? null,
      limit,
      offset,
    ]);
  }

  async count(projectId: string, pattern: string | undefined): Promise<number> {
    return (await this.db.one<{ total: number }>(sql.COUNT_SUBSCRIBERS, [projectId, pattern ?? null]))!.total;
  }

  async delete(projectId: string, id: string): Promise<boolean> {
    return (await this.db.exec(sql.DELETE_SUBSCRIBER, [projectId, id])) > 0;
  }

  tokenVersions(projectId: string, ids: string[]): Promise<{ id: string; version: string }[]> {
    return this.db.rows(sql.TOKEN_VERSIONS, [projectId, ids]);
  }

  async revokeTokens(projectId: string, id: string): Promise<boolean> {
    return (await this.db.exec(sql.REVOKE_TOKENS, [projectId, id])) > 0;
  }

  findAddresses(projectId: string, ids: string[]): Promise<SubscriberAddresses[]> {
    return this.db.rows<SubscriberAddresses>(sql.FIND_ADDRESSES_BY_IDS, [projectId, ids]);
  }

  findProfiles(projectId: string, ids: string[]): Promise<SubscriberProfile[]> {
    return this.db.rows<SubscriberProfile>(sql.FIND_PROFILES_BY_IDS, [projectId, ids]);
  }

  findForTrace(
    projectId: string | null,
    by: { id: string | null; email: string | null; phone: string | null },
    limit: number,
  ): Promise<(SubscriberAddresses & { projectId: string })[]> {
    return this.db.rows(sql.FIND_FOR_TRACE, [projectId, by.id, by.email, by.phone, limit]);
  }
}

const COLUMN: Record<keyof SubscriberUpsert['fields'], string> = {
  email: 'email',
  phone: 'phone',
  firstName: 'first_name',
  lastName: 'last_name',
  locale: 'locale',
  timezone: 'timezone',
};

/** The fields given, keyed by column name, for BULK_UPSERT_SUBSCRIBERS. */
function columnsOf(fields: SubscriberUpsert['fields']): Record<string, string | null> {
  const columns: Record<string, string | null> = {};
  for (const [key, value] of Object.entries(fields)) columns[COLUMN[key as keyof typeof COLUMN]] = value ?? null;
  return columns;
}
