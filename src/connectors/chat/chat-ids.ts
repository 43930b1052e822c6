/**
 * The chats the instance-wide bots address, as chat bindings store them (issue 18). One chat
 * written two ways (`-0100123` and `-100123`, `@Acme` and `@acme`) is one chat to the provider,
 * so it is one binding: both the binding and the recipient are compared in this canonical form.
 */

/** A Telegram chat id (negative for groups, -100… for supergroups and channels) or a public @channelusername. */
export const TELEGRAM_CHAT = /^(-?\d{1,20}|@[A-Za-z][A-Za-z0-9_]{3,31})$/;

/** A Slack conversation id (C…, G…, D…, U…) or channel name, as chat.postMessage takes it. */
export const SLACK_CHANNEL = /^#?[A-Za-z0-9][A-Za-z0-9._-]{0,79}$/;

/** What a chat of each channel looks like, for messages that name the fix. */
export const CHAT_HINTS = {
  telegram: 'a Telegram chat id (123456789, -1001234567890) or a public @channelusername',
  slack: 'a Slack channel id such as C0123ABCD (or a #channel-name)',
} as const;

export type BindableChannel = keyof typeof CHAT_HINTS;

/** Telegram: numeric ids without leading zeros (Telegram reads them as numbers), usernames lower-cased (Telegram ignores case). */
export function canonicalTelegramChat(chat: string): string {
  const trimmed = chat.trim();
  if (/^-?\d{1,20}$/.test(trimmed)) return BigInt(trimmed).toString();
  return trimmed.startsWith('@') ? trimmed.toLowerCase() : trimmed;
}

/** Slack ids are case-sensitive: only surrounding space goes. */
export function canonicalSlackChannel(channel: string): string {
  return channel.trim();
}

/** A chat as bindings store it, or undefined when it is not a chat of that channel (the message names the form). */
export function bindableChat(channel: BindableChannel, chat: string): string | undefined {
  const trimmed = chat.trim();
  if (channel === 'telegram') return TELEGRAM_CHAT.test(trimmed) ? canonicalTelegramChat(trimmed) : undefined;
  return SLACK_CHANNEL.test(trimmed) ? canonicalSlackChannel(trimmed) : undefined;
}
