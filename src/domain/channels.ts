/** Every channel notifyd knows. A channel is deliverable when a provider is configured for it. */
export const CHANNELS = ['email', 'sms', 'whatsapp', 'push', 'in_app', 'telegram', 'slack', 'discord'] as const;
export type Channel = (typeof CHANNELS)[number];

/** notifyd's accepted spellings. */
const ALIASES: Record<string, Channel> = { inapp: 'in_app', 'in-app': 'in_app', fcm: 'push' };

export function normaliseChannel(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const lower = value.trim().toLowerCase();
  return ALIASES[lower] ?? lower;
}

export function isChannel(value: unknown): value is Channel {
  return typeof value === 'string' && (CHANNELS as readonly string[]).includes(value);
}

export const CHANNEL_LIST = CHANNELS.join(', ');
