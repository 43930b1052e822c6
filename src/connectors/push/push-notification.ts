import type { OutboundMessage } from '../connector.js';

/** notifyd's per-message push options (`push` on /v1/send), as stored in the job payload. */
export interface PushOptions {
  badge?: number;
  sound?: string;
  thread_id?: string;
  category?: string;
  collapse_id?: string;
  mutable_content?: boolean;
  background?: boolean;
  ttl_secs?: number;
  /** Custom key/value pairs delivered to the app or service worker. */
  data?: Record<string, unknown>;
  /** Web push notification icon and badge image (URLs). */
  icon?: string;
  image?: string;
}

/** What every platform sender needs of a push job, read once per job. */
export interface PushNotification {
  jobId: string;
  title: string;
  body: string;
  /** Deep link opened on tap. */
  url?: string;
  /** Custom data for the app (the job id is always added as `notifyd_job_id`). */
  data: Record<string, unknown>;
  options: PushOptions;
  /** Seconds the push service keeps an undelivered message (undefined: the service's default). */
  ttlSecs?: number;
  /** critical and high priority jobs go out as high urgency, bulk as low. */
  urgency: 'high' | 'normal' | 'low';
}

const record = (v: unknown): Record<string, unknown> =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

export function buildPushNotification(message: OutboundMessage): PushNotification {
  const options = record(message.payload.push) as PushOptions;
  const url = typeof message.payload.url === 'string' ? message.payload.url : undefined;
  return {
    jobId: message.jobId,
    title: message.subject ?? 'Notification',
    body: message.body ?? '',
    url,
    data: { ...record(options.data), notifyd_job_id: message.jobId },
    options,
    ttlSecs: typeof options.ttl_secs === 'number' ? options.ttl_secs : undefined,
    urgency: message.priority <= 30 ? 'high' : message.priority >= 80 ? 'low' : 'normal',
  };
}
