import type { CredentialRow, DestinationRow } from './telegram-route.types.js';

/** An owner's bot as the API shows it: never the token, only its hint (last four characters). */
export function presentBot(c: CredentialRow) {
  return {
    route_id: c.id,
    bot_username: c.botUsername,
    owned: true,
    source: 'personal' as const,
    token_hint: c.tokenHint,
    webhook_registered: c.webhookRegistered,
    // Pairing needs Telegram to deliver the /start to notifyd.
    can_link: c.webhookRegistered,
  };
}

/** An owner's chat as GET/PUT show it: the address masked (the lookup, for senders, gives it whole). */
export function presentDestination(d: DestinationRow, botUsername: string | null) {
  return {
    channel: 'telegram' as const,
    address_masked: `***${d.address.slice(-4)}`,
    verified: d.verified,
    created_at: new Date(d.createdAt).toISOString(),
    telegram_thread_id: d.threadId,
    telegram_bot_username: botUsername,
  };
}
