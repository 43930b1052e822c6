export const PUSH_PLATFORMS = ['web', 'fcm', 'apns'] as const;
export type PushPlatform = (typeof PUSH_PLATFORMS)[number];

/** A validated registration, ready to be stored. */
export interface PushTokenRegistration {
  subscriberId: string;
  token: string;
  platform: PushPlatform;
  deviceName: string | null;
  endpoint: string | null;
  p256dh: string | null;
  auth: string | null;
  /** The browser's PushSubscription.expirationTime (epoch milliseconds), if it gave one. */
  expirationTime: number | null;
  userAgent: string | null;
}

/** One registered device, as the API and the push connector read it: a registration as stored. */
export interface PushTokenRow extends PushTokenRegistration {
  id: string;
  createdAt: Date;
  lastUsedAt: Date;
}

/** A subscriber of a project (push jobs of one connector call may span projects). */
export interface SubscriberKey {
  projectId: string;
  subscriberId: string;
}

/** The map key of a subscriber of a project (NUL separates: PostgreSQL text never holds one). */
export function subscriberKey(k: SubscriberKey): string {
  return `${k.projectId}\u0000${k.subscriberId}`;
}

/** A device a provider declared gone, as the connector deletes it. */
export interface DeadPushToken {
  projectId: string;
  id: string;
  token: string;
}
