import { isoOrNull } from '../common/http/iso-timestamp.js';
import type { InboxMessageDto } from './dto/inbox.dto.js';
import type { MessageRow } from './inbox.types.js';

export function presentMessage(m: MessageRow): InboxMessageDto {
  return {
    id: m.id,
    title: m.title,
    body: m.body,
    icon: m.icon,
    url: m.url,
    data: m.data,
    topic: m.topic,
    is_read: m.readAt !== null,
    read_at: isoOrNull(m.readAt),
    is_seen: m.seenAt !== null,
    seen_at: isoOrNull(m.seenAt),
    is_archived: m.archivedAt !== null,
    archived_at: isoOrNull(m.archivedAt),
    is_todo: m.isTodo,
    snoozed_until: m.snoozedUntil && new Date(m.snoozedUntil) > new Date() ? isoOrNull(m.snoozedUntil) : null,
    created_at: isoOrNull(m.createdAt)!,
  };
}
