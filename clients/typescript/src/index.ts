export { Notifyd, type NotifydOptions, FINAL_STATUSES, newIdempotencyKey } from './client.js';
export { NotifydError } from './errors.js';
export { NotifydInbox, type InboxOptions, type InboxEvent, type InboxSubscription, type SubscriberPreferences, type PreferenceChoices } from './inbox.js';
export { verifyWebhook, WebhookVerificationError, type VerifyOptions } from './webhook-verifier.js';
export { retryAfterMs } from './transport.js';
export type * from './types.js';
export type { components, operations, paths } from './schema.js';
