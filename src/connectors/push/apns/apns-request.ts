import type { OutgoingHttpHeaders } from 'node:http2';
import type { PushNotification } from '../push-notification.js';

/**
 * The APNs request for one device (notifyd's payload): `aps.alert {title, body}`, `sound`
 * (default "default", "none" omits it), badge, thread-id, category, mutable-content; a
 * background push carries only `content-available: 1` (push type background, priority 5).
 * Top-level `url` and `data` reach the app. Bulk jobs go at priority 5 (power-friendly).
 */
export function buildApnsRequest(
  token: string,
  topic: string,
  n: PushNotification,
  nowMs = Date.now(),
): { headers: OutgoingHttpHeaders; body: string } {
  const o = n.options;
  const aps: Record<string, unknown> = {};
  if (o.background) {
    aps['content-available'] = 1;
  } else {
    aps.alert = { title: n.title, body: n.body };
    if (o.sound !== 'none') aps.sound = o.sound ?? 'default';
    if (o.mutable_content) aps['mutable-content'] = 1;
  }
  if (o.badge !== undefined) aps.badge = o.badge;
  if (o.thread_id) aps['thread-id'] = o.thread_id;
  if (o.category) aps.category = o.category;
  const headers: OutgoingHttpHeaders = {
    ':method': 'POST',
    ':path': `/3/device/${token}`,
    'apns-topic': topic,
    'apns-push-type': o.background ? 'background' : 'alert',
    'apns-priority': o.background || n.urgency === 'low' ? '5' : '10',
    'content-type': 'application/json',
  };
  if (n.ttlSecs !== undefined) headers['apns-expiration'] = String(Math.floor(nowMs / 1000) + n.ttlSecs);
  if (o.collapse_id && Buffer.byteLength(o.collapse_id) <= 64) headers['apns-collapse-id'] = o.collapse_id;
  return { headers, body: JSON.stringify({ aps, ...(n.url ? { url: n.url } : {}), data: n.data }) };
}
