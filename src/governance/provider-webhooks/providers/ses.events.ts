import { dateOrNull, isObject, jobIdOrNull, str, type EvidenceKind, type ProviderEvent } from '../provider-event.js';
import { bounceError, clickedHost, emailSuppression } from './email-evidence.js';

const KINDS: Record<string, EvidenceKind> = {
  Delivery: 'delivered',
  Bounce: 'bounced',
  Complaint: 'complained',
  Open: 'opened',
  Click: 'clicked',
};

const emails = (list: unknown): string[] =>
  (Array.isArray(list) ? list : [])
    .map((r) => (isObject(r) ? str(r.emailAddress) : null))
    .filter((v): v is string => v !== null);

/**
 * An Amazon SES event (the `Message` of an SNS notification, from SES notifications
 * `notificationType` or event publishing `eventType`) as evidence. The SNS MessageId is the
 * key. The job id rides in the `notifyd_job_id` message tag (SES gives tags as name → [values]),
 * the message id is `mail.messageId`. A Permanent bounce suppresses its bounced recipients;
 * Transient and Undetermined are recorded only; a complaint suppresses the complaining ones.
 */
export function sesEvent(snsMessageId: string, message: unknown): ProviderEvent {
  if (!isObject(message)) throw new Error('the SES event (SNS `Message`) is not a JSON object');
  const type = str(message.eventType) ?? str(message.notificationType);
  if (!type) throw new Error('the SES event has no `eventType` or `notificationType`');
  const mail = isObject(message.mail) ? message.mail : {};
  const tags = isObject(mail.tags) ? mail.tags : {};
  const tagged = Array.isArray(tags.notifyd_job_id) ? tags.notifyd_job_id[0] : tags.notifyd_job_id;
  const bounce = isObject(message.bounce) ? message.bounce : {};
  const complaint = isObject(message.complaint) ? message.complaint : {};
  const delivery = isObject(message.delivery) ? message.delivery : {};
  const open = isObject(message.open) ? message.open : {};
  const click = isObject(message.click) ? message.click : {};
  let kind: EvidenceKind = KINDS[type] ?? 'other';
  const bounceType = str(bounce.bounceType) ?? 'Undetermined';
  if (kind === 'bounced' && bounceType !== 'Permanent') kind = 'soft_bounced';
  const bounced = emails(bounce.bouncedRecipients);
  const complained = emails(complaint.complainedRecipients);
  const destination = (Array.isArray(mail.destination) ? mail.destination : []).filter(
    (v): v is string => typeof v === 'string',
  );
  const recipients = type === 'Bounce' ? bounced : type === 'Complaint' ? complained : destination;
  const diagnostic = isObject((bounce.bouncedRecipients as unknown[] | undefined)?.[0])
    ? str((bounce.bouncedRecipients as Record<string, unknown>[])[0].diagnosticCode)
    : null;
  return {
    provider: 'ses',
    eventId: snsMessageId,
    kind,
    providerType: type,
    jobId: jobIdOrNull(tagged),
    providerMessageId: str(mail.messageId),
    recipients,
    occurredAt: dateOrNull(
      bounce.timestamp ??
        complaint.timestamp ??
        delivery.timestamp ??
        open.timestamp ??
        click.timestamp ??
        mail.timestamp,
    ),
    error:
      type === 'Bounce' ? bounceError(bounceType, bounce.bounceSubType, diagnostic ?? 'no diagnostic given') : null,
    suppress: emailSuppression(kind, bounced, complained),
    payload: {
      type,
      messageId: mail.messageId ?? null,
      bounceType: type === 'Bounce' ? bounceType : undefined,
      bounceSubType: bounce.bounceSubType ?? undefined,
      feedbackId: bounce.feedbackId ?? complaint.feedbackId ?? undefined,
      complaintFeedbackType: complaint.complaintFeedbackType ?? undefined,
      click: clickedHost(click.link),
    },
  };
}
