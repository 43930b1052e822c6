import { isUuid } from '../../domain/ids.js';

/** The providers whose webhooks notifyd verifies and applies (the `provider` column); `log`: its simulated complaints. */
export type EvidenceProvider = 'resend' | 'postmark' | 'sendgrid' | 'ses' | 'twilio' | 'whatsapp' | 'log';

/**
 * What an event means for the job, whatever the provider called it:
 * - delivered: the recipient's server or handset accepted it (stamps delivered_at once);
 * - bounced: a hard bounce or a final delivery failure (job → bounced, suppression when `suppress`);
 * - soft_bounced: a transient bounce, recorded only;
 * - complained: marked as spam (complained_at, suppression);
 * - opened / clicked: provider-side engagement (first time stamped on the job);
 * - other: stored on the job's history without an effect.
 */
export type EvidenceKind = 'delivered' | 'bounced' | 'soft_bounced' | 'complained' | 'opened' | 'clicked' | 'other';

/** A do-not-contact entry the event asks for (hard bounce, complaint, STOP, WhatsApp opt-out). */
export interface SuppressionRequest {
  channel: 'email' | 'sms' | 'whatsapp';
  /** `all` blocks every message; `marketing` only bulk/marketing ones. */
  scope: 'all' | 'marketing';
  reason: 'bounce' | 'complaint' | 'stop' | 'unsubscribe';
  /** Addresses to suppress; empty means "the job's recipient". */
  addresses: string[];
}

/** One provider event, normalised. The provider's own ids stay, for dedup and for the job page. */
export interface ProviderEvent {
  provider: EvidenceProvider;
  /** The provider's id for this event (dedup key with the provider). */
  eventId: string;
  kind: EvidenceKind;
  /** The provider's own name for it, e.g. `email.bounced`, `Bounce`, `undelivered`. */
  providerType: string;
  /**
   * Our job id when the message carried it (tag, metadata, custom arg, callback URL): a hint,
   * applied only to a job holding `providerMessageId` (see ProviderEventsRepository.findJob).
   */
  jobId: string | null;
  /** The provider's message id: what decides which job the event is about. */
  providerMessageId: string | null;
  recipients: string[];
  occurredAt: Date | null;
  /** Human-readable reason for bounces and failures (no message content). */
  error: string | null;
  suppress: SuppressionRequest | null;
  /**
   * The project the webhook URL names, for events about an address rather than a job (a Twilio
   * STOP reply): its suppression is created in that project.
   */
  projectId?: string;
  /** What is kept of the payload: ids, types, codes, never message bodies. */
  payload: Record<string, unknown>;
}

/** A job id only if it looks like one: a tag written by someone else must not reach a uuid cast. */
export function jobIdOrNull(value: unknown): string | null {
  return typeof value === 'string' && isUuid(value) ? value.toLowerCase() : null;
}

/** A date only if the provider sent a parseable one. */
export function dateOrNull(value: unknown): Date | null {
  if (typeof value !== 'string' && typeof value !== 'number') return null;
  const d = new Date(typeof value === 'number' ? value * 1000 : value);
  return Number.isNaN(d.getTime()) ? null : d;
}

export const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
