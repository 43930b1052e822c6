import { Injectable } from '@nestjs/common';
import { Db } from '../database/db.js';
import type { DeadPushToken, PushTokenRegistration, PushTokenRow, SubscriberKey } from '../domain/push-token.types.js';
import * as sql from './sql/push-tokens.sql.js';

@Injectable()
export class PushTokensRepository {
  constructor(private readonly db: Db) {}

  async upsert(projectId: string, r: PushTokenRegistration): Promise<{ row: PushTokenRow; created: boolean }> {
    const result = await this.db.one<PushTokenRow & { created: boolean }>(sql.UPSERT_PUSH_TOKEN, [
      projectId,
      r.subscriberId,
      r.token,
      r.platform,
      r.deviceName,
      r.endpoint,
      r.p256dh,
      r.auth,
      r.expirationTime,
      r.userAgent,
    ]);
    const { created, ...row } = result!;
    return { row, created };
  }

  forSubscriber(projectId: string, subscriberId: string): Promise<PushTokenRow[]> {
    return this.db.rows<PushTokenRow>(sql.LIST_SUBSCRIBER_TOKENS, [projectId, subscriberId]);
  }

  async delete(projectId: string, id: string): Promise<boolean> {
    return (await this.db.exec(sql.DELETE_PUSH_TOKEN, [id, projectId])) > 0;
  }

  forSubscribers(keys: readonly SubscriberKey[]): Promise<(PushTokenRow & { projectId: string })[]> {
    if (keys.length === 0) return Promise.resolve([]);
    return this.db.rows(sql.LIST_SUBSCRIBERS_TOKENS, [keys.map((k) => k.projectId), keys.map((k) => k.subscriberId)]);
  }

  async deleteDead(tokens: readonly DeadPushToken[]): Promise<number> {
    if (tokens.length === 0) return 0;
    return this.db.exec(sql.DELETE_DEAD_TOKENS, [
      tokens.map((t) => t.projectId),
      tokens.map((t) => t.id),
      tokens.map((t) => t.token),
    ]);
  }
}
