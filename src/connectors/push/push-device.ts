import type { ProviderError } from '../provider-error.js';
import type { PushPlatform, PushTokenRow } from '../../domain/push-token.types.js';
import type { PushNotification } from './push-notification.js';

/** One device's answer: accepted (with the provider's id), or refused with a classified error. */
export type DeviceOutcome = { ok: true; id: string | null } | { ok: false; error: ProviderError };

/**
 * Sends one notification to one device of its platform. Implementations never throw: every
 * failure comes back as a classified outcome (deadRecipient when the device is gone).
 */
export interface PlatformSender {
  readonly platform: PushPlatform;
  /** False when the platform's credentials are not configured. */
  readonly configured: boolean;
  /** The variables that configure it, for the error when it is not. */
  readonly configureHint: string;
  send(device: PushTokenRow, notification: PushNotification): Promise<DeviceOutcome>;
}
