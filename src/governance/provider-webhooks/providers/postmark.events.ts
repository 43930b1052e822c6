import { dateOrNull, isObject, jobIdOrNull, str, type EvidenceKind, type ProviderEvent } from '../provider-event.js';
import { clickedHost, emailSuppression } from './email-evidence.js';

const KINDS: Record<string, EvidenceKind> = {
  Delivery: 'delivered',
  Bounce: 'bounced',
  SpamComplaint: 'complained',
  Open: 'opened',
  Click: 'clicked',
};

/** Bounce types after which the address will never work (Postmark also deactivates it: `Inactive`). */
const HARD_BOUNCES = new Set(['HardBounce', 'BadEmailAddress', 'ManuallyDeactivated', 'DMARCPolicy']);

/**
 * A Postmark webhook (https://postmarkapp.com/developer/webhooks/webhooks-overview) as evidence.
 * Postmark has no event id: (MessageID, RecordType) is the key, as a message is delivered,
 * bounced or first opened once. The job id travels in `Metadata.notifyd_job_id`.
 */
export function postmarkEvent(body: unknown): ProviderEvent {
  if (!isObject(body) || typeof body.RecordType !== 'string')
    throw new Error('a Postmark event is a JSON object with a string `RecordType`');
  const messageId = str(body.MessageID);
  if (!messageId) throw new Error('`MessageID` is missing');
  const metadata = isObject(body.Metadata) ? body.Metadata : {};
  const recipient = str(body.Recipient) ?? str(body.Email);
  const recipients = recipient ? [recipient] : [];
  let kind: EvidenceKind = KINDS[body.RecordType] ?? 'other';
  const bounceType = str(body.Type);
  if (kind === 'bounced') {
    if (bounceType === 'SpamComplaint' || bounceType === 'SpamNotification') kind = 'complained';
    else if (!(bounceType && HARD_BOUNCES.has(bounceType)) && body.Inactive !== true) kind = 'soft_bounced';
  }
  const error =
    body.RecordType === 'Bounce'
      ? `bounced (${bounceType ?? 'Unknown'}): ${str(body.Description) ?? str(body.Details) ?? 'no reason given'}`
      : null;
  return {
    provider: 'postmark',
    eventId: `${messageId}:${body.RecordType}`,
    kind,
    providerType: body.RecordType,
    jobId: jobIdOrNull(metadata.notifyd_job_id),
    providerMessageId: messageId,
    recipients,
    occurredAt: dateOrNull(body.DeliveredAt ?? body.BouncedAt ?? body.ReceivedAt),
    error,
    suppress: emailSuppression(kind, recipients),
    payload: {
      RecordType: body.RecordType,
      MessageID: messageId,
      Type: bounceType ?? undefined,
      TypeCode: body.TypeCode ?? undefined,
      Inactive: body.Inactive ?? undefined,
      click: clickedHost(body.OriginalLink),
    },
  };
}
