import { ApiError } from '../common/errors/api-error.js';
import type { RegisterPushTokenDto } from './dto/push-token.dto.js';
import type { PushPlatform, PushTokenRegistration } from '../domain/push-token.types.js';

/** An APNs device token: 32 bytes today, in hex; Apple says it may grow, so allow up to 100 bytes. */
const APNS_TOKEN = /^(?:[0-9a-f]{2}){32,100}$/i;
/** FCM registration tokens are printable ASCII without spaces (letters, digits, `:_-`). */
const FCM_TOKEN = /^[\x21-\x7e]{1,4096}$/;

const invalid = (message: string) => ApiError.unprocessable('validation_failed', message);

/**
 * notifyd's registration rules, without I/O: the platform defaults to `web` when an endpoint is
 * given and to `fcm` otherwise; a web token is its endpoint and needs the browser's keys; FCM
 * and APNs tokens have their own shapes; options of one platform on another are refused rather
 * than silently dropped. The endpoint's URL and host are checked by the service.
 */
export function toRegistration(dto: RegisterPushTokenDto): PushTokenRegistration {
  if (
    dto.expiration_time !== undefined &&
    dto.expirationTime !== undefined &&
    dto.expiration_time !== dto.expirationTime
  ) {
    throw invalid('expiration_time and expirationTime disagree; send one of them.');
  }
  const platform = (dto.platform ?? (dto.endpoint ? 'web' : 'fcm')) as PushPlatform;
  const common = {
    subscriberId: dto.subscriber_id,
    platform,
    deviceName: dto.device_name ?? null,
    userAgent: dto.user_agent ?? null,
  };
  if (platform === 'web') {
    const endpoint = dto.endpoint ?? dto.token;
    if (!endpoint)
      throw invalid('A web push subscription needs endpoint (and keys): send the browser PushSubscription as it is.');
    if (dto.token && dto.endpoint && dto.token !== dto.endpoint)
      throw invalid('For web push, token is the endpoint: omit token or make it equal to endpoint.');
    if (!dto.keys)
      throw invalid(
        'A web push subscription needs keys.p256dh and keys.auth (PushSubscription.toJSON().keys) to encrypt its payloads.',
      );
    const p256dh = Buffer.from(dto.keys.p256dh, 'base64url');
    if (p256dh.length !== 65 || p256dh[0] !== 0x04)
      throw invalid(
        'keys.p256dh must be the 65-byte uncompressed P-256 key the browser gave (URL-safe base64, 87 characters).',
      );
    if (Buffer.from(dto.keys.auth, 'base64url').length !== 16)
      throw invalid('keys.auth must be the 16-byte secret the browser gave (URL-safe base64, 22 characters).');
    return {
      ...common,
      token: endpoint,
      endpoint,
      p256dh: dto.keys.p256dh.replace(/=+$/, ''),
      auth: dto.keys.auth.replace(/=+$/, ''),
      expirationTime: dto.expiration_time ?? dto.expirationTime ?? null,
    };
  }
  const extras = (['endpoint', 'keys', 'expiration_time', 'expirationTime'] as const).filter(
    (f) => dto[f] !== undefined,
  );
  if (extras.length)
    throw invalid(`${extras.join(', ')} apply to web push only; remove them or set platform to "web".`);
  if (!dto.token)
    throw invalid(
      `A ${platform} device needs token (${platform === 'apns' ? 'the APNs device token in hex' : 'the FCM registration token'}).`,
    );
  if (platform === 'apns' && !APNS_TOKEN.test(dto.token))
    throw invalid("An APNs token must be the device token in hex (64 characters for today's 32-byte tokens).");
  if (platform === 'fcm' && !FCM_TOKEN.test(dto.token))
    throw invalid('An FCM token must be the registration token from getToken(), without spaces.');
  return {
    ...common,
    // APNs tokens are case-insensitive hex; one spelling keeps re-registration an update.
    token: platform === 'apns' ? dto.token.toLowerCase() : dto.token,
    endpoint: null,
    p256dh: null,
    auth: null,
    expirationTime: null,
  };
}
