import { Type } from 'class-transformer';
import { IsIn, IsObject, IsOptional, IsString, Matches, ValidateIf, ValidateNested } from 'class-validator';
import { IsText, IsWholeNumber } from '../../common/validation/bounded.js';
import { SUBSCRIBER_ID_PATTERN } from '../../domain/subscriber-id.js';
import { PUSH_PLATFORMS } from '../../domain/push-token.types.js';

/** URL-safe base64 as browsers give it (padding tolerated). */
const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/;

/** The `keys` of a browser PushSubscription (PushSubscription.toJSON()). */
export class WebPushKeysDto {
  /**
   * The browser's P-256 public key for payload encryption (URL-safe base64, 65 bytes).
   * @example "BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM"
   */
  @IsText({ max: 200 })
  @Matches(BASE64URL, { message: 'keys.p256dh must be URL-safe base64, as PushSubscription.toJSON() gives it' })
  p256dh: string;

  /**
   * The browser's authentication secret (URL-safe base64, 16 bytes).
   * @example "tBHItJI5svbpez7KI4CCXg"
   */
  @IsText({ max: 100 })
  @Matches(BASE64URL, { message: 'keys.auth must be URL-safe base64, as PushSubscription.toJSON() gives it' })
  auth: string;
}

/**
 * A device to reach a subscriber on. Web push: send the browser's PushSubscription as it is
 * (`endpoint`, `keys`, `expirationTime`); FCM and APNs: the device `token` and its `platform`.
 */
export class RegisterPushTokenDto {
  /**
   * The subscriber who owns the device (create it first with POST /v1/subscribers).
   * @example "user_123"
   */
  @IsString()
  @Matches(SUBSCRIBER_ID_PATTERN, { message: 'subscriber_id must be 1–255 printable characters (e.g. "user_123")' })
  subscriber_id: string;

  /**
   * FCM registration token or APNs device token (hex). For web push it defaults to `endpoint`.
   * @example "fYp3x0k1Q9a:APA91bH…"
   */
  @IsOptional()
  @IsText({ min: 1, max: 4096 })
  token?: string;

  /**
   * `web`, `fcm` or `apns`; default `web` when `endpoint` is given, else `fcm`.
   * @example "web"
   */
  @IsOptional()
  @IsIn(PUSH_PLATFORMS, { message: `platform must be one of ${PUSH_PLATFORMS.join(', ')}` })
  platform?: string;

  /** @example "Jane's Pixel 9" */
  @IsOptional()
  @IsText({ max: 200 })
  device_name?: string;

  /**
   * Web push: the subscription endpoint on the browser's push service (https).
   * @example "https://fcm.googleapis.com/fcm/send/dpH5lCsTSSM:APA91bH…"
   */
  @IsOptional()
  @IsText({ max: 2048 })
  endpoint?: string;

  /** Web push: the subscription's encryption keys. */
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => WebPushKeysDto)
  keys?: WebPushKeysDto;

  /**
   * Web push: when the subscription expires (epoch milliseconds), or null.
   * @example null
   */
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsWholeNumber({ min: 0, max: 8_640_000_000_000_000 })
  expiration_time?: number | null;

  /** The browser's spelling of `expiration_time` (PushSubscription.toJSON()). */
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsWholeNumber({ min: 0, max: 8_640_000_000_000_000 })
  expirationTime?: number | null;

  /** @example "Mozilla/5.0 (X11; Linux x86_64) Firefox/135.0" */
  @IsOptional()
  @IsText({ max: 512 })
  user_agent?: string;
}

export class PushTokenDto {
  /** @example "6f1c2b3a-8d4e-4f5a-9b6c-7d8e9f0a1b2c" */
  id: string;
  /** @example "https://fcm.googleapis.com/fcm/send/dpH5lCsTSSM:APA91bH…" */
  token: string;
  /** @example "web" */
  platform: string;
  /** @example "Jane's laptop" */
  device_name: string | null;
  /** @example "https://fcm.googleapis.com/fcm/send/dpH5lCsTSSM:APA91bH…" */
  endpoint: string | null;
  /** @example null */
  expiration_time: number | null;
  /** @example "Mozilla/5.0 (X11; Linux x86_64) Firefox/135.0" */
  user_agent: string | null;
  /** @example "2026-11-30T08:00:00.000Z" */
  created_at: string;
  /** @example "2026-11-30T08:00:00.000Z" */
  last_used_at: string;
}

export class RegisterPushTokenResponseDto {
  /** @example true */
  success: boolean;
  /** @example "6f1c2b3a-8d4e-4f5a-9b6c-7d8e9f0a1b2c" */
  id: string;
  /**
   * False when the device was already registered (its fields were refreshed).
   * @example true
   */
  created: boolean;
  token: PushTokenDto;
}

export class PushTokenListDto {
  tokens: PushTokenDto[];
}

export class VapidPublicKeyDto {
  /**
   * The VAPID application server key for `pushManager.subscribe({ applicationServerKey })`.
   * @example "BEl62iUYgUivxIkv69yViEuiBIa-Ib9-SkvMeAtA3LFgDzkrxZJjSgSnfckjBJuBkr3qBUYIHBQFLXYp5Nksh8U"
   */
  public_key: string;
}

export class VapidKeyQueryDto {
  /**
   * Optional project id; when given it must exist.
   * @example "acme"
   */
  @IsOptional()
  @IsText({ max: 64 })
  project?: string;
}
