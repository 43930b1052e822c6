import { Injectable } from '@nestjs/common';
import { Db } from '../database/db.js';
import * as sql from './sql/chat-bindings.sql.js';

export interface ChatBindingRow {
  channel: string;
  chat: string;
  createdAt: Date;
}

/** One (project, channel, chat) triple: a binding, or a chat a send asks for. */
export interface ChatKey {
  projectId: string;
  channel: string;
  chat: string;
}

/** All SQL of chat bindings. */
@Injectable()
export class ChatBindingsRepository {
  constructor(private readonly db: Db) {}

  /** Replaces the channel's bindings and returns them as they now are (one transaction). */
  replace(projectId: string, channel: string, chats: readonly string[]): Promise<string[]> {
    return this.db.transaction(async (runner) => {
      await this.db.exec(sql.REPLACE_CHAT_BINDINGS, [projectId, channel, chats], runner);
      return (await this.db.rows<{ chat: string }>(sql.LIST_CHANNEL_BINDINGS, [projectId, channel], runner)).map(
        (r) => r.chat,
      );
    });
  }

  list(projectId: string): Promise<ChatBindingRow[]> {
    return this.db.rows<ChatBindingRow>(sql.LIST_CHAT_BINDINGS, [projectId]);
  }

  async deleteChannel(projectId: string, channel: string): Promise<number> {
    return (await this.db.rows(sql.DELETE_CHANNEL_BINDINGS, [projectId, channel])).length;
  }

  /** The keys among these that are bound, as `project/channel/chat` strings (see keyOf). */
  async boundAmong(keys: readonly ChatKey[]): Promise<Set<string>> {
    const distinct = [...new Map(keys.map((k) => [keyOf(k), k])).values()];
    if (distinct.length === 0) return new Set();
    const rows = await this.db.rows<ChatKey>(sql.BOUND_AMONG, [
      distinct.map((k) => k.projectId),
      distinct.map((k) => k.channel),
      distinct.map((k) => k.chat),
    ]);
    return new Set(rows.map(keyOf));
  }
}

/** A triple as one string (project ids and channels hold no NUL). */
export const keyOf = (k: ChatKey) => `${k.projectId}\u0000${k.channel}\u0000${k.chat}`;
