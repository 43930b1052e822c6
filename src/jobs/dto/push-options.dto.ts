import { IsBoolean, IsObject, IsOptional } from 'class-validator';
import { IsText, IsWholeNumber } from '../../common/validation/bounded.js';

/**
 * Push options (notifyd's `push` object), applied per platform by the push connector
 * (docs/CONNECTORS.md, Push); options a platform has no use for are ignored by it.
 */
export class PushOptionsDto {
  /**
   * App icon badge count (APNs, FCM for iOS).
   * @example 3
   */
  @IsOptional()
  @IsWholeNumber({ min: 0, max: 99_999 })
  badge?: number;

  /**
   * Sound file name, `default`, or `none` for a silent alert (APNs).
   * @example "default"
   */
  @IsOptional()
  @IsText({ max: 256 })
  sound?: string;

  /**
   * Groups notifications on the device (APNs thread-id; web push tag).
   * @example "order-A-1042"
   */
  @IsOptional()
  @IsText({ max: 64 })
  thread_id?: string;

  /**
   * Notification category with its actions (APNs).
   * @example "ORDER_UPDATE"
   */
  @IsOptional()
  @IsText({ max: 64 })
  category?: string;

  /**
   * A newer notification with the same id replaces an undelivered older one (APNs collapse id,
   * FCM collapse_key, web push Topic when it is URL-safe base64 of 32 characters at most).
   * @example "order-A-1042"
   */
  @IsOptional()
  @IsText({ pattern: /^[\x20-\x7e]{1,64}$/, message: 'push.collapse_id must be 1–64 printable ASCII characters' })
  collapse_id?: string;

  /** Lets the app's notification service extension modify the content (APNs mutable-content). */
  @IsOptional()
  @IsBoolean()
  mutable_content?: boolean;

  /** A silent push that wakes the app: no alert, `content-available` (APNs), data-only (FCM). */
  @IsOptional()
  @IsBoolean()
  background?: boolean;

  /**
   * Seconds the push service keeps an undelivered notification (0 = now or never).
   * @example 3600
   */
  @IsOptional()
  @IsWholeNumber({ min: 0, max: 2_419_200 })
  ttl_secs?: number;

  /**
   * Custom data for the app or service worker (FCM receives the values as strings).
   * @example {"order_id": "A-1042"}
   */
  @IsOptional()
  @IsObject()
  data?: Record<string, unknown>;

  /**
   * Web push: icon URL shown with the notification.
   * @example "https://acme.example/icon-192.png"
   */
  @IsOptional()
  @IsText({ max: 2048 })
  icon?: string;

  /**
   * Web push and FCM: a large image URL.
   * @example "https://acme.example/parcel.jpg"
   */
  @IsOptional()
  @IsText({ max: 2048 })
  image?: string;
}
