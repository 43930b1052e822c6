import { createDecipheriv } from 'node:crypto';
import { TELEGRAM_BOT_TOKEN_PATTERN } from '../config/sections/chat-providers.config.js';
import { OWNER_PATTERN } from '../telegram-routes/dto/telegram-route.dto.js';
import type { Converted } from './convert.js';
import { maskSecret } from '../project-providers/project-settings.js';

/**
 * notifyd 0.x's per-user Telegram bots (its migration 024, reference §2.15/§8): the bot token
 * and webhook secret were AES-256-GCM under TELEGRAM_ENCRYPTION_KEY, stored as
 * `[nonce 12 | ciphertext | tag 16]`. The import opens them with that key and seals them again
 * for this notifyd (NOTIFYD_SECRET_KEY, as the routes do). Ids carry over: a credential's id is
 * the route id senders stored, and the webhook's connection id and secret stay, so the bot's
 * webhook (…/v1/telegram/webhooks/<connection id>, the same path here) keeps working once that
 * URL reaches this notifyd. Link tokens (15 minutes) are not carried.
 */
export interface TelegramSealing {
  /** Opens a 0.x blob with its TELEGRAM_ENCRYPTION_KEY. */
  open0x: (blob: Buffer) => string;
  /** Seals a value for this notifyd (telegram-routes/route-secrets.ts contexts). */
  seal: (projectId: string, owner: string, field: 'bot_token' | 'webhook_secret', value: string) => string;
  keyId: string;
}

export interface TelegramCredentialRow0x {
  id: string;
  project_id: string;
  owner: string;
  bot_token_enc: Buffer;
  bot_username: string;
  webhook_connection_id: string;
  webhook_secret_enc: Buffer;
}

export interface TelegramDestinationRow0x {
  id: string;
  project_id: string;
  owner: string;
  credential_id: string;
  address: string;
  telegram_thread_id: string | null;
  verified: boolean;
}

/** 0.x's blob opened with 0.x's key (base64 of 32 bytes): AES-256-GCM, no associated data. */
export function open0xBlob(key: Buffer, blob: Buffer): string {
  if (blob.length < 12 + 16) throw new Error('blob too short');
  const decipher = createDecipheriv('aes-256-gcm', key, blob.subarray(0, 12));
  decipher.setAuthTag(blob.subarray(blob.length - 16));
  return Buffer.concat([decipher.update(blob.subarray(12, blob.length - 16)), decipher.final()]).toString('utf8');
}

/** How the import gets at 0.x's tokens, or why it cannot (a missing key). */
export type TelegramImport = TelegramSealing | { unavailable: string };

export function convertTelegramCredential(
  c: TelegramCredentialRow0x,
  t: TelegramImport,
): Converted<Record<string, unknown>> {
  const what = `telegram route ${c.id} of '${c.owner}' in '${c.project_id}'`;
  if ('unavailable' in t) return { skip: `${what}: ${t.unavailable}` };
  if (!OWNER_PATTERN.test(c.owner))
    return { skip: `${what}: the owner is not a notifyd owner id (1–255 printable characters, no slash)` };
  let token: string;
  let secret: string;
  try {
    token = t.open0x(c.bot_token_enc);
    secret = t.open0x(c.webhook_secret_enc);
  } catch {
    return { skip: `${what}: its token does not open with TELEGRAM_ENCRYPTION_KEY (is it the 0.x instance's key?)` };
  }
  if (!TELEGRAM_BOT_TOKEN_PATTERN.test(token)) return { skip: `${what}: the stored token is not a bot token` };
  return {
    notes: [],
    row: {
      id: c.id,
      project_id: c.project_id,
      owner: c.owner,
      // A bot token starts with the bot's id.
      bot_id: token.split(':')[0],
      bot_username: c.bot_username,
      bot_token_sealed: t.seal(c.project_id, c.owner, 'bot_token', token),
      token_hint: maskSecret(token),
      webhook_connection_id: c.webhook_connection_id,
      webhook_secret_sealed: t.seal(c.project_id, c.owner, 'webhook_secret', secret),
      key_id: t.keyId,
    },
  };
}

export function convertTelegramDestination(
  d: TelegramDestinationRow0x,
  importedRoutes: ReadonlySet<string>,
): Converted<Record<string, unknown>> {
  const what = `telegram chat of '${d.owner}' in '${d.project_id}'`;
  if (!importedRoutes.has(d.credential_id)) return { skip: `${what}: its route ${d.credential_id} was left out` };
  if (!/^-?\d{1,20}$/.test(d.address)) return { skip: `${what}: '${d.address.slice(0, 40)}' is not a numeric chat id` };
  const thread = d.telegram_thread_id && /^[1-9]\d{0,18}$/.test(d.telegram_thread_id) ? d.telegram_thread_id : null;
  return {
    notes:
      d.telegram_thread_id && !thread
        ? [`${what}: topic '${d.telegram_thread_id}' dropped (not a positive topic id)`]
        : [],
    row: {
      id: d.id,
      project_id: d.project_id,
      owner: d.owner,
      credential_id: d.credential_id,
      address: BigInt(d.address).toString(),
      telegram_thread_id: thread,
      verified: d.verified,
    },
  };
}
