// Type-only: what the worker loads must not pull in the DTOs' validation libraries.
import type { InboxMessageDto } from './dto/inbox.dto.js';

/** A stored message: the API's content fields as they are, its states as the database keeps them. */
export type MessageRow = Pick<InboxMessageDto, 'id' | 'title' | 'body' | 'icon' | 'url' | 'data' | 'topic'> & {
  readAt: Date | null;
  seenAt: Date | null;
  archivedAt: Date | null;
  isTodo: boolean;
  snoozedUntil: Date | null;
  createdAt: Date;
  createdKey: string;
};

export interface InboxCounts {
  unread: number;
  unseen: number;
  total: number;
}

/** One event of a subscriber's stream; `id` is a bigint as text. */
export interface InboxEvent {
  id: string;
  type: string;
  data: Record<string, unknown>;
}

export interface MessageFilter {
  archived: 'exclude' | 'only' | 'include';
  status: 'unread' | 'read' | 'unseen' | 'todo' | null;
  topic: string | null;
  search: string | null;
  snoozed: boolean;
  after?: { createdAt: string; id: string };
  limit: number;
  /** Rows skipped first (notifyd 0.x's deprecated offset paging). */
  offset?: number;
}

export interface MessageChange {
  read?: boolean;
  seen?: boolean;
  archived?: boolean;
  isTodo?: boolean;
  /** Present: set (a date) or clear (null) the snooze. */
  snoozedUntil?: Date | null;
}
