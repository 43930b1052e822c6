import { dateOrNull, isObject, jobIdOrNull, str, type EvidenceKind, type ProviderEvent } from '../provider-event.js';
import { clickedHost, emailSuppression } from './email-evidence.js';

const KINDS: Record<string, EvidenceKind> = {
  delivered: 'delivered',
  bounce: 'bounced',
  spamreport: 'complained',
  open: 'opened',
  click: 'clicked',
};

/**
 * A SendGrid Event Webhook POST (an array of events) as evidence. `sg_event_id` is the key. The
 * job id rides in custom_args (top-level `notifyd_job_id`); the message id is the part of
 * `sg_message_id` before the first dot (SendGrid appends its filter id to X-Message-Id). A
 * `bounce` of type `bounce` is hard; `blocked` is soft. `unsubscribe`/`group_unsubscribe`
 * suppress marketing email. processed, deferred, dropped… are kept without effect.
 */
export function sendgridEvents(body: unknown): ProviderEvent[] {
  if (!Array.isArray(body)) throw new Error('a SendGrid Event Webhook body is a JSON array of events');
  return body.map((e, i) => {
    if (!isObject(e) || !str(e.sg_event_id) || !str(e.event))
      throw new Error(`event ${i} needs \`sg_event_id\` and \`event\``);
    return sendgridEvent(e);
  });
}

function sendgridEvent(e: Record<string, unknown>): ProviderEvent {
  const type = e.event as string;
  let kind: EvidenceKind = KINDS[type] ?? 'other';
  if (kind === 'bounced' && e.type === 'blocked') kind = 'soft_bounced';
  const email = str(e.email);
  const recipients = email ? [email] : [];
  const unsubscribe = type === 'unsubscribe' || type === 'group_unsubscribe';
  const messageId = str(e.sg_message_id)?.split('.')[0] ?? null;
  return {
    provider: 'sendgrid',
    eventId: e.sg_event_id as string,
    kind,
    providerType: type,
    jobId: jobIdOrNull(e.notifyd_job_id),
    providerMessageId: messageId,
    recipients,
    occurredAt: dateOrNull(typeof e.timestamp === 'number' ? e.timestamp : null),
    error:
      type === 'bounce' || type === 'dropped'
        ? `${type === 'bounce' ? `bounced (${str(e.type) ?? 'bounce'})` : 'dropped'}: ${str(e.reason) ?? 'no reason given'}`
        : null,
    suppress:
      emailSuppression(kind, recipients) ??
      (unsubscribe ? { channel: 'email', scope: 'marketing', reason: 'unsubscribe', addresses: recipients } : null),
    payload: {
      event: type,
      sg_event_id: e.sg_event_id,
      sg_message_id: e.sg_message_id ?? null,
      type: e.type ?? undefined,
      status: e.status ?? undefined,
      bounce_classification: e.bounce_classification ?? undefined,
      click: clickedHost(e.url),
    },
  };
}
