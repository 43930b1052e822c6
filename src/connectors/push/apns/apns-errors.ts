import { ProviderError } from '../../provider-error.js';

/** Reasons that mean the device token will never work again: delete it. */
const DEAD = new Set(['Unregistered', 'BadDeviceToken', 'DeviceTokenNotForTopic', 'ExpiredToken']);
const RATE_LIMITED = new Set(['TooManyRequests', 'TooManyProviderTokenUpdates']);
const TRANSIENT = new Set([
  'InternalServerError',
  'ServiceUnavailable',
  'Shutdown',
  'IdleTimeout',
  'ExpiredProviderToken',
]);

/**
 * APNs refusals (developer.apple.com, "Handling notification responses from APNs"):
 * - 410 Unregistered / ExpiredToken, 400 BadDeviceToken / DeviceTokenNotForTopic: the token
 *   is gone or not this app's → permanent, dead (deleted);
 * - 429 TooManyRequests (one device too often), TooManyProviderTokenUpdates → rate limited;
 * - 500/503 InternalServerError, ServiceUnavailable, Shutdown, IdleTimeout, any 5xx, and an
 *   ExpiredProviderToken that survived one renewal → transient;
 * - 403 InvalidProviderToken (wrong key, key id or team) → permanent, with the settings to check;
 * - anything else (BadTopic, PayloadTooLarge, MissingTopic, BadCollapseId…) → permanent, kept.
 */
export function classifyApnsRefusal(status: number, reason: string | undefined): ProviderError {
  const detail = `APNs HTTP ${status}${reason ? ` ${reason}` : ''}`;
  const options = { providerCode: reason };
  if (reason && DEAD.has(reason))
    return ProviderError.permanent(`${detail} (token deleted)`, { ...options, deadRecipient: true });
  if ((reason && RATE_LIMITED.has(reason)) || status === 429)
    return ProviderError.rateLimited(detail, undefined, options);
  if ((reason && TRANSIENT.has(reason)) || status >= 500) return ProviderError.transient(detail, options);
  if (reason === 'InvalidProviderToken')
    return ProviderError.permanent(`${detail} (check APNS_KEY_ID, APNS_TEAM_ID and the .p8 key)`, options);
  if (status === 410) return ProviderError.permanent(`${detail} (token deleted)`, { ...options, deadRecipient: true });
  return ProviderError.permanent(detail, options);
}
