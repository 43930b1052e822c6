import type { Channel } from '../domain/channels.js';
import type { SubscriberRow } from './subscriber.types.js';

const text = (v: unknown): string | undefined =>
  typeof v === 'string' && v.trim() ? v.trim() : typeof v === 'number' ? String(v) : undefined;

/**
 * Where a subscriber is reached on a channel (notifyd's address book): email → `email`,
 * SMS/WhatsApp → `phone`, chat → ids kept in `data`, in-app and push → the subscriber id
 * (push fans out to the subscriber's device tokens at send time).
 */
export function addressFor(
  channel: Channel,
  subscriber: Pick<SubscriberRow, 'id' | 'email' | 'phone' | 'data'>,
): string | undefined {
  switch (channel) {
    case 'email':
      return text(subscriber.email);
    case 'sms':
    case 'whatsapp':
      return text(subscriber.phone);
    case 'telegram':
      return text(subscriber.data?.telegram_chat_id);
    case 'slack':
      return (
        text(subscriber.data?.slack) ?? text(subscriber.data?.slack_webhook) ?? text(subscriber.data?.slack_channel)
      );
    case 'discord':
      return text(subscriber.data?.discord_webhook);
    case 'in_app':
    case 'push':
      return subscriber.id;
  }
}

/** The field that holds a channel's address (the first of slack's three). */
const ADDRESS_FIELD: Record<Channel, string> = {
  email: 'email',
  sms: 'phone',
  whatsapp: 'phone',
  telegram: 'data.telegram_chat_id',
  slack: 'data.slack',
  discord: 'data.discord_webhook',
  in_app: 'id',
  push: 'id',
};

/** The field a caller should fill when a subscriber has no address for a channel. */
export function missingAddressReason(channel: Channel): string {
  return `subscriber has no ${ADDRESS_FIELD[channel]} for ${channel}`;
}

/** The field addressFor read the subscriber's address from, for messages that name it. */
export function addressField(channel: Channel, subscriber: Pick<SubscriberRow, 'data'>): string {
  if (channel !== 'slack' || text(subscriber.data?.slack)) return ADDRESS_FIELD[channel];
  return text(subscriber.data?.slack_webhook) ? 'data.slack_webhook' : 'data.slack_channel';
}
