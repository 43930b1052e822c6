/**
 * The events an endpoint can subscribe to. Job events carry the job's state after the change;
 * `subscriber.preference_changed` carries the subscriber id and the preferences written;
 * `suppression.created` the suppression as GET /v1/suppressions/:id shows it (any source: the
 * API, an operator, a synchronous hard bounce, a provider webhook, an unsubscribe link).
 * `*` subscribes an endpoint to every event, present and future.
 */
export const WEBHOOK_EVENT_TYPES = [
  'job.queued',
  'job.sent',
  'job.delivered',
  'job.bounced',
  'job.complained',
  'job.failed',
  'job.opened',
  'job.clicked',
  'job.suppressed',
  'subscriber.preference_changed',
  'suppression.created',
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export const ALL_EVENTS = '*';

export function isWebhookEventType(value: string): value is WebhookEventType {
  return (WEBHOOK_EVENT_TYPES as readonly string[]).includes(value);
}
