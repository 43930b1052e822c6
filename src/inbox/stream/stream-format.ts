import { sseFrame } from './sse-frame.js';

/**
 * How a stream speaks. `notifyd`: named events (`message.created`, `counts`…). `notifyd-0x`:
 * what notifyd 0.x's clients read with `EventSource.onmessage`: default `message` events whose
 * JSON `type` is `new_notification` ({notification: {id, body, icon, url, created_at, is_read,
 * is_todo}}) or `count_update` ({unread_count}). 0.x emitted nothing else, so the other events
 * are not sent to such a stream (its counts still follow every change). Frames keep their `id:`
 * line, so a reconnecting 0.x client replays what it missed, which 0.x could not do.
 */
export type StreamFormat = 'notifyd' | 'notifyd-0x';
export const STREAM_FORMATS: readonly StreamFormat[] = ['notifyd', 'notifyd-0x'];

/** One stored event as a frame for this format; undefined when the format has no such event. */
export function eventFrame(format: StreamFormat, id: string, type: string, data: unknown): string | undefined {
  if (format === 'notifyd') return sseFrame(id, type, data);
  if (type !== 'message.created') return undefined;
  const m = ((data as { message?: Record<string, unknown> }).message ?? {}) as Record<string, unknown>;
  const notification = {
    id: m.id,
    body: m.body,
    icon: m.icon ?? 'bell',
    url: m.url ?? null,
    created_at: m.created_at,
    is_read: m.is_read === true,
    is_todo: m.is_todo === true,
  };
  return `id: ${id}\ndata: ${JSON.stringify({ type: 'new_notification', notification })}\n\n`;
}

/** The counts as a frame for this format. */
export function countsFrame(
  format: StreamFormat,
  id: string,
  counts: { unread_count: number; unseen_count: number; total: number },
): string {
  if (format === 'notifyd') return sseFrame(id, 'counts', counts);
  return `id: ${id}\ndata: ${JSON.stringify({ type: 'count_update', unread_count: counts.unread_count })}\n\n`;
}
