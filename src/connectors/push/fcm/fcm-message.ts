import type { PushNotification } from '../push-notification.js';

/** FCM data values must be strings. */
function stringData(data: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(Object.entries(data).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]));
}

/**
 * The FCM HTTP v1 `message` for one device token: a notification (title, body) unless the job
 * asked for a background push, the job's data as strings (with `url` and `notifyd_job_id`),
 * and the Android and APNs options notifyd's `push` object carries.
 */
export function buildFcmMessage(token: string, n: PushNotification): Record<string, unknown> {
  const o = n.options;
  const data = stringData({ ...n.data, ...(n.url ? { url: n.url } : {}) });
  const aps: Record<string, unknown> = {};
  if (o.badge !== undefined) aps.badge = o.badge;
  if (o.sound && o.sound !== 'none') aps.sound = o.sound;
  if (o.thread_id) aps['thread-id'] = o.thread_id;
  if (o.category) aps.category = o.category;
  if (o.mutable_content) aps['mutable-content'] = 1;
  if (o.background) aps['content-available'] = 1;
  const android: Record<string, unknown> = { priority: n.urgency === 'high' ? 'high' : 'normal' };
  if (n.ttlSecs !== undefined) android.ttl = `${n.ttlSecs}s`;
  if (o.collapse_id) android.collapse_key = o.collapse_id;
  return {
    token,
    ...(o.background ? {} : { notification: { title: n.title, body: n.body, ...(o.image ? { image: o.image } : {}) } }),
    data,
    android,
    ...(Object.keys(aps).length ? { apns: { payload: { aps } } } : {}),
    ...(n.url?.startsWith('https://') ? { webpush: { fcm_options: { link: n.url } } } : {}),
  };
}
