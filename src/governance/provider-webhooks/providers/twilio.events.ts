import { jobIdOrNull, type EvidenceKind, type ProviderEvent } from '../provider-event.js';

/** Twilio's "attempt to send to unsubscribed recipient": the person texted STOP. */
export const TWILIO_STOP = '21610';

/**
 * An incoming message with Twilio Advanced Opt-Out's `OptOutType=STOP` (the person replied STOP,
 * or UNSUBSCRIBE, CANCEL…): the sender's number is suppressed in the project the URL names. Other
 * incoming messages (and START/HELP) give no event: notifyd does not store message content.
 */
export function twilioInboundEvent(projectId: string, form: Record<string, string>): ProviderEvent | null {
  const sid = form.MessageSid ?? form.SmsSid;
  if (!sid) throw new Error('MessageSid is required');
  if ((form.OptOutType ?? '').toUpperCase() !== 'STOP' || !form.From) return null;
  const whatsapp = form.From.startsWith('whatsapp:');
  return {
    provider: 'twilio',
    eventId: `${sid}:inbound`,
    kind: 'other',
    providerType: 'inbound.STOP',
    jobId: null,
    providerMessageId: sid,
    recipients: [],
    occurredAt: null,
    error: null,
    suppress: {
      channel: whatsapp ? 'whatsapp' : 'sms',
      scope: 'all',
      reason: 'stop',
      addresses: [form.From.replace(/^whatsapp:/, '')],
    },
    projectId,
    payload: { MessageSid: sid, OptOutType: 'STOP' },
  };
}

/**
 * A Twilio status callback (form fields) as evidence. Twilio sends no event id; a message
 * reaches each status once, so (MessageSid, MessageStatus) is the key. `delivered` stamps
 * delivered_at; `undelivered`/`failed` bounce the job with `twilio <ErrorCode>`; 21610 (STOP)
 * suppresses the number. To, From and Body are personal data and are never kept.
 */
export function twilioStatusEvent(jobParam: string | undefined, form: Record<string, string>): ProviderEvent {
  const sid = form.MessageSid ?? form.SmsSid;
  const status = form.MessageStatus ?? form.SmsStatus;
  if (!sid || !status) throw new Error('MessageSid and MessageStatus are required');
  const code = form.ErrorCode || null;
  const failed = status === 'undelivered' || status === 'failed';
  const kind: EvidenceKind = status === 'delivered' || status === 'read' ? 'delivered' : failed ? 'bounced' : 'other';
  const whatsapp = (form.To ?? '').startsWith('whatsapp:');
  return {
    provider: 'twilio',
    eventId: `${sid}:${status}`,
    kind,
    providerType: status,
    jobId: jobIdOrNull(jobParam),
    providerMessageId: sid,
    recipients: [],
    occurredAt: null,
    error: failed ? `twilio ${code ?? status}` : null,
    suppress:
      failed && code === TWILIO_STOP
        ? { channel: whatsapp ? 'whatsapp' : 'sms', scope: 'all', reason: 'stop', addresses: [] }
        : null,
    payload: {
      MessageSid: sid,
      MessageStatus: status,
      ErrorCode: code ?? undefined,
      ...(form.OptOutType ? { OptOutType: form.OptOutType } : {}),
    },
  };
}
